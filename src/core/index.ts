// The loop's own small types, shared by model/, agent/, tools/ and report/ (no provider SDK types).
export * from './conclusion.js';
export * from './messages.js';
export * from './model.js';
export * from './todo.js';
export * from './tools.js';
export * from './usage.js';
