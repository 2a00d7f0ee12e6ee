export { AnthropicModel, type AnthropicModelOptions } from './client.js';
export { classifyError, spendLimitAwareFetch } from './errors.js';
export { FALLBACK_PRICE, PRICE_TABLE, PRICES_CHECKED, priceFor } from './prices.js';
