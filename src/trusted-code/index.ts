export { hookCommands, needsTrustedCode, prepareTrustedCode, type PrepareInput } from './prepare.js';
export { TrustedCode, type Launch, type StdioLaunch } from './trusted-code.js';
export { commandPaths, rewriteCommand } from './named-paths.js';
