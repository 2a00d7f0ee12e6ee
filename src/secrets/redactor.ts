/** Shorter values would mask ordinary words and numbers all over a report. */
const MIN_SECRET_LENGTH = 6;
const MASK = '***';

/** Credential formats worth hiding even when nobody told us the value. */
const TOKEN_PATTERNS: readonly RegExp[] = [
  /gh[pousr]_[A-Za-z0-9]{30,}/g,
  /github_pat_[A-Za-z0-9_]{20,}/g,
  /sk-ant-[A-Za-z0-9_-]{10,}/g,
  /AKIA[0-9A-Z]{16}/g,
  /xox[abprs]-[A-Za-z0-9-]{10,}/g,
  /eyJ[A-Za-z0-9_-]{2,}\.eyJ[A-Za-z0-9_-]{2,}\.[A-Za-z0-9_-]*/g,
  // A private key block whole (PEM, OpenSSH, PGP), also as JSON or a string literal writes it (`\\n` for newlines).
  /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----[\s\S]{0,20000}?-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/g,
  // Google OAuth access tokens (what a service-account key or a WIF exchange is traded for).
  /ya29\.[A-Za-z0-9_-]{20,}/g,
];

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The base64 characters that depend only on the secret's bytes when it starts `offset` bytes into
 * a longer encoded buffer: these appear in any base64 text that embeds the secret at that
 * alignment, whatever surrounds it.
 */
function base64Core(secret: Buffer, offset: number): string {
  const encoded = Buffer.concat([Buffer.alloc(offset), secret])
    .toString('base64')
    .replace(/=+$/, '');
  const startBits = offset * 8;
  const endBits = (offset + secret.length) * 8;
  return encoded.slice(Math.ceil(startBits / 6), Math.floor(endBits / 6));
}

function base64Forms(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  // The whole encoding too, so a standalone value loses its last partial characters and padding as well.
  const forms = [bytes.toString('base64'), bytes.toString('base64url')];
  for (const offset of [0, 1, 2]) {
    const core = base64Core(bytes, offset);
    forms.push(core, core.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return forms;
}

function urlForms(secret: string): string[] {
  const encoded = encodeURIComponent(secret);
  // Hex digits may come back in either case from other encoders.
  return [encoded, encoded.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase())];
}

/** A multi-line secret (a PEM key) can be printed one line at a time, as the runner's masker assumes. */
function pieces(secret: string): string[] {
  const lines = secret.split(/\r\n|\r|\n/).map((line) => line.trim());
  return [secret, secret.trim(), ...(lines.length > 1 ? lines : [])];
}

function formsOf(secret: string): string[] {
  return pieces(secret)
    .filter((piece) => piece.length >= MIN_SECRET_LENGTH)
    .flatMap((piece) => [piece, ...base64Forms(piece), ...urlForms(piece)]);
}

function anyOf(known: RegExp | null): RegExp {
  return new RegExp([...(known ? [known] : []), ...TOKEN_PATTERNS].map((p) => `(?:${p.source})`).join('|'));
}

export class Redactor {
  private known: RegExp | null = null;
  /** Any of the known values or the token patterns, in one expression; not global, so test() keeps no state. */
  private any = anyOf(null);
  private readonly secrets: string[];

  constructor(secrets: string[]) {
    this.secrets = [...secrets];
    this.compile();
  }

  /** More values to keep out of everything posted: secrets an MCP configuration expanded, say. */
  add(secrets: readonly string[]): void {
    this.secrets.push(...secrets);
    this.compile();
  }

  private compile(): void {
    const forms = [...new Set(this.secrets.flatMap(formsOf))].filter((form) => form.length >= MIN_SECRET_LENGTH);
    // Longest first, so a form that contains another is masked whole rather than leaving a tail.
    forms.sort((a, b) => b.length - a.length);
    this.known = forms.length > 0 ? new RegExp(forms.map(escapeRegExp).join('|'), 'g') : null;
    this.any = anyOf(this.known);
  }

  /** Whether the text holds a value this redactor would mask (a file holding one is a credentials file). */
  holdsSecret(text: string): boolean {
    // Tested, not replaced (a file read is asked about whole, and most hold nothing to mask), and
    // with every pattern in one expression: one pass over the text instead of one per pattern.
    return this.any.test(text);
  }

  redact(text: string): string {
    let out = this.known ? text.replace(this.known, MASK) : text;
    for (const pattern of TOKEN_PATTERNS) out = out.replace(pattern, MASK);
    return out;
  }
}
