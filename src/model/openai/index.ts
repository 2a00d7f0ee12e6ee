export { OpenAIModel, openaiModel, type ChatClient, type OpenAIModelOptions } from './client.js';
export { classifyError, quotaAwareFetch } from './errors.js';
export { toMessages, toTools } from './request.js';
export { estimateUsage, fromFinishReason, parseArguments, TurnAccumulator, usageOf } from './response.js';
