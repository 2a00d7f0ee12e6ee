/** What the fake remembers between requests: the script's position, recorded requests, issued ids. */
import { isBlock, isRecord, Rejection } from './common.js';
import type { MessagesRequestBody, RecordedRequest, RequestMessage, RequestTool, Script, ScriptedReply } from './types.js';

/** A well-typed view of whatever arrived; the identity on valid bodies. */
function project(raw: unknown): MessagesRequestBody {
  const obj = isRecord(raw) ? raw : {};
  const messages: RequestMessage[] = Array.isArray(obj.messages)
    ? obj.messages.filter(isRecord).map((m) => ({
        ...m,
        role: typeof m.role === 'string' ? m.role : '',
        content: typeof m.content === 'string' ? m.content : Array.isArray(m.content) ? m.content.filter(isBlock) : [],
      }))
    : [];
  const body: MessagesRequestBody = {
    ...obj,
    model: typeof obj.model === 'string' ? obj.model : '',
    max_tokens: typeof obj.max_tokens === 'number' ? obj.max_tokens : 0,
    stream: obj.stream === true,
    messages,
  };
  if (typeof obj.system === 'string') body.system = obj.system;
  else if (Array.isArray(obj.system)) body.system = obj.system.filter(isBlock);
  else delete body.system;
  if (Array.isArray(obj.tools)) {
    body.tools = obj.tools.filter((t): t is RequestTool => isRecord(t) && typeof t.name === 'string');
  } else {
    delete body.tools;
  }
  return body;
}

export class ServerState {
  readonly requests: RecordedRequest[] = [];
  readonly validationErrors: string[] = [];
  /** Prefix hashes written by earlier requests' breakpoints. */
  readonly cache = new Set<string>();
  /** Signatures this server issued, with the thinking texts they were issued for. */
  readonly signatures = new Map<string, Set<string>>();
  /** Web search results this server issued, by server_tool_use id: their content's JSON, which must come back unchanged. */
  readonly searchResults = new Map<string, string>();
  /** Set by `close()`: a delayed reply that wakes up then must not start writing. */
  closing = false;
  private readonly issuedToolIds = new Set<string>();
  private readonly sleepers = new Set<() => void>();
  private scriptPosition = 0;
  private toolCounter = 0;
  private messageCounter = 0;
  private requestCounter = 0;

  constructor(private readonly script: Script) {}

  nextRequestId(): string {
    return `req_${String(++this.requestCounter).padStart(6, '0')}`;
  }

  nextMessageId(): string {
    return `msg_${++this.messageCounter}`;
  }

  /** Ids the script spelled out in the same reply are `reserved`, so a generated one never collides. */
  nextToolId(reserved: ReadonlySet<string>): string {
    let id: string;
    do id = `toolu_${++this.toolCounter}`;
    while (this.issuedToolIds.has(id) || reserved.has(id));
    return id;
  }

  nextServerToolId(): string {
    return `srvtoolu_${++this.toolCounter}`;
  }

  markToolIdIssued(id: string): void {
    this.issuedToolIds.add(id);
  }

  rememberSignature(signature: string, thinking: string): void {
    const issued = this.signatures.get(signature) ?? new Set<string>();
    issued.add(thinking);
    this.signatures.set(signature, issued);
  }

  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.sleepers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.sleepers.add(done);
    });
  }

  wakeAll(): void {
    for (const wake of [...this.sleepers]) wake();
  }

  record(headers: RecordedRequest['headers'], raw: Buffer, parsed: unknown, arrivedAt = performance.now()): RecordedRequest {
    const record: RecordedRequest = {
      index: this.requests.length,
      body: project(parsed),
      headers: { ...headers },
      bytes: raw.length,
      receivedAt: arrivedAt,
      reply: 'invalid',
    };
    this.requests.push(record);
    return record;
  }

  pickReply(record: RecordedRequest): ScriptedReply | Rejection {
    const position = this.scriptPosition++;
    const script = this.script;
    if (Array.isArray(script)) {
      const exhausted = `script exhausted: no scripted reply for request ${record.index} (script has ${script.length} entries)`;
      return script[position] ?? new Rejection(500, 'api_error', exhausted);
    }
    try {
      return script(record, position);
    } catch (error) {
      return new Rejection(500, 'api_error', `script threw: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
