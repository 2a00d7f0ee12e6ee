export const id = 426;
export const ids = [426];
export const modules = {

/***/ 1426:
/***/ ((__unused_webpack___webpack_module__, __webpack_exports__, __webpack_require__) => {

__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   AnthropicModel: () => (/* binding */ AnthropicModel),
/* harmony export */   ModelError: () => (/* reexport safe */ _model_js__WEBPACK_IMPORTED_MODULE_0__.m),
/* harmony export */   classifyError: () => (/* binding */ classifyError),
/* harmony export */   spendLimitAwareFetch: () => (/* binding */ spendLimitAwareFetch)
/* harmony export */ });
/* harmony import */ var _anthropic_ai_sdk__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(5064);
/* harmony import */ var _anthropic_ai_sdk__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(395);
/* harmony import */ var _model_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(4395);



const SPEND_LIMIT = /spend(ing)? limit|credit balance|billing|usage limit|quota/i;
/**
 * A 429 that means "out of money" will not get better by waiting: mark it so the SDK's own retry
 * logic gives up at once instead of backing off five times.
 */
function spendLimitAwareFetch(inner) {
    return async (input, init) => {
        const response = await inner(input, init);
        if (response.status !== 429)
            return response;
        const body = await response.clone().text();
        if (!SPEND_LIMIT.test(body))
            return response;
        const headers = new Headers(response.headers);
        headers.set('x-should-retry', 'false');
        return new Response(body, { status: 429, statusText: response.statusText, headers });
    };
}
function usageOf(u) {
    return {
        input_tokens: u?.input_tokens ?? 0,
        output_tokens: u?.output_tokens ?? 0,
        cache_read_input_tokens: u?.cache_read_input_tokens ?? 0,
        cache_creation_input_tokens: u?.cache_creation_input_tokens ?? 0,
    };
}
function apiMessage(error) {
    const body = error.error;
    const inner = body?.error?.message;
    return typeof inner === 'string' ? inner : error.message;
}
/** Turns an SDK error into one the loop can act on, with a message that says what to fix. */
function classifyError(error, model, maxRetries, billed) {
    if (error instanceof _model_js__WEBPACK_IMPORTED_MODULE_0__/* .ModelError */ .m)
        return error;
    if (error instanceof _anthropic_ai_sdk__WEBPACK_IMPORTED_MODULE_1__/* .APIUserAbortError */ .cH)
        return new _model_js__WEBPACK_IMPORTED_MODULE_0__/* .ModelError */ .m('the model call was aborted', 'aborted', billed);
    if (error instanceof _anthropic_ai_sdk__WEBPACK_IMPORTED_MODULE_1__/* .APIError */ .LG && typeof error.status === 'number') {
        const status = error.status;
        const detail = apiMessage(error);
        const fatal = (hint) => new _model_js__WEBPACK_IMPORTED_MODULE_0__/* .ModelError */ .m(`Anthropic API ${status}: ${detail}. ${hint}`, 'fatal', billed, status);
        if (status === 400)
            return fatal('The request was rejected as sent; this is a bug or an unsupported setting (check model and limits).');
        if (status === 401)
            return fatal('Check anthropic-api-key / ANTHROPIC_API_KEY.');
        if (status === 403)
            return fatal(`Check that the key may use model ${model}.`);
        if (status === 404)
            return fatal(`Check the model id "${model}" and anthropic-base-url / ANTHROPIC_BASE_URL.`);
        if (status === 413)
            return fatal('The request is larger than the API accepts; lower the tool output cap or start a new run.');
        if (status === 429 && SPEND_LIMIT.test(detail))
            return fatal('The organisation has hit its spend limit; raise it in the Anthropic console.');
        if ([408, 409, 429].includes(status) || status >= 500) {
            return new _model_js__WEBPACK_IMPORTED_MODULE_0__/* .ModelError */ .m(`Anthropic API ${status} after ${maxRetries} retries: ${detail}. Try again later or raise max-retries.`, 'exhausted', billed, status);
        }
        return fatal('Unexpected status.');
    }
    const message = error instanceof Error ? error.message : String(error);
    return new _model_js__WEBPACK_IMPORTED_MODULE_0__/* .ModelError */ .m(`model stream failed: ${message}`, 'stream', billed);
}
class AnthropicModel {
    options;
    id;
    client;
    constructor(options) {
        this.options = options;
        this.id = options.model;
        this.client = new _anthropic_ai_sdk__WEBPACK_IMPORTED_MODULE_2__/* .Anthropic */ .N({
            apiKey: options.apiKey ?? null,
            baseURL: options.baseURL ?? null,
            maxRetries: options.maxRetries,
            timeout: options.timeoutMs ?? 10 * 60_000,
            fetch: spendLimitAwareFetch(options.fetch ?? globalThis.fetch),
        });
    }
    async send(request) {
        // What message_start reported: a stream that breaks later was still billed for it.
        let started = null;
        let connected = false;
        const stream = this.client.messages.stream({
            model: this.id,
            max_tokens: request.maxTokens,
            system: request.system,
            tools: request.tools,
            messages: request.messages,
        }, { signal: request.signal });
        stream.on('connect', () => {
            connected = true;
            request.onConnect?.();
        });
        stream.on('streamEvent', (event) => {
            if (event.type === 'message_start')
                started = usageOf(event.message.usage);
        });
        if (request.onText)
            stream.on('text', request.onText);
        try {
            const message = await stream.finalMessage();
            return { content: message.content, stopReason: message.stop_reason, usage: usageOf(message.usage), model: message.model };
        }
        catch (error) {
            if (request.signal.aborted)
                throw new _model_js__WEBPACK_IMPORTED_MODULE_0__/* .ModelError */ .m('the model call was aborted', 'aborted', started);
            const classified = classifyError(error, this.id, this.options.maxRetries, started);
            // A connection that fails before any response is the SDK's to retry; once a 200 arrived the
            // SDK no longer retries, so a break is a stream failure whatever error it surfaced as.
            if (connected && classified.kind !== 'fatal' && classified.status === undefined) {
                return Promise.reject(new _model_js__WEBPACK_IMPORTED_MODULE_0__/* .ModelError */ .m(classified.message, 'stream', started));
            }
            throw classified;
        }
    }
}


/***/ })

};
