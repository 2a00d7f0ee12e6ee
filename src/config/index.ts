/** Claude Code settings from trusted sources only: parsing, loading and merging. */
export {
  ClaudeSettingsSchema,
  SettingsFileError,
  denyIncludingAsk,
  keyPath,
  parseClaudeSettings,
  type ClaudeSettings,
} from './claude-settings.js';
export { mergeHooks, mergeSettings, type SettingsSource, type SourcedRule, type TrustedSettings } from './merge.js';
export {
  LOCAL_SETTINGS_PATH,
  REPO_SETTINGS_PATH,
  loadCliSettings,
  loadRepoSettings,
  repoSettingsRef,
  settingsInput,
  type Log,
  type ReadFile,
  type RefKind,
} from './sources.js';
export { ruleLists, type InputRules } from './rules.js';
