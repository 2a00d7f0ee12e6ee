/**
 * zod's mini build, for what is parsed before the first model request: the settings, Claude Code's
 * settings files, the runner's environment and the event's payload, the todo list and the Skill and
 * ReviewComment tools. It loads in about half the time of zod's full API, which the built-in tools
 * and MCP keep using once the run is under way. The two share zod's core and its one
 * configuration; the mini build leaves messages to a locale, so this sets English.
 */
import { config } from 'zod/mini';
import en from 'zod/v4/locales/en.js';

config(en());

export * from 'zod/mini';
