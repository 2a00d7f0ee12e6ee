/**
 * zod's mini build, for every schema of the project (settings and settings files, the runner's
 * environment, webhook payloads, tool inputs, MCP configuration and results, hook output). It
 * loads in about half the time of zod's full API, and the settings and the event are parsed before
 * the first request. It leaves messages to a locale, so this sets English, once for all.
 */
import { config } from 'zod/mini';
import en from 'zod/v4/locales/en.js';

config(en());

export * from 'zod/mini';
