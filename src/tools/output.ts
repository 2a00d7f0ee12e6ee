/** Head and tail halves of a limit: the start says what ran, the end how it ended. */
function halves(limit: number): { head: number; tail: number } {
  const head = Math.max(0, Math.floor(limit / 2));
  return { head, tail: Math.max(0, limit - head) };
}

function joinCut(head: string, cut: number, tail: string): string {
  return `${head}\n[... ${cut} characters cut from the middle ...]\n${tail}`;
}

/** Text as is when it fits in limit characters; otherwise its head and tail around a cut line. */
export function capText(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const { head, tail } = halves(limit);
  const kept = text.slice(0, head);
  const end = tail > 0 ? text.slice(text.length - tail) : '';
  return joinCut(kept, text.length - kept.length - end.length, end);
}

/**
 * Collects streamed output in bounded memory: the first half of the limit is kept, the last half
 * rolls, everything between is only counted. text() gives the same shape as capText.
 */
export class CappedCollector {
  private head = '';
  private tailParts: string[] = [];
  private tailLength = 0;
  private total = 0;
  private readonly headLimit: number;
  private readonly tailLimit: number;

  constructor(readonly limit: number) {
    const { head, tail } = halves(limit);
    this.headLimit = head;
    this.tailLimit = tail;
  }

  /** Characters received so far, kept or not. */
  get totalChars(): number {
    return this.total;
  }

  push(chunk: Buffer | string): void {
    let text = typeof chunk === 'string' ? chunk : chunk.toString('utf8');
    this.total += text.length;
    if (this.head.length < this.headLimit) {
      const room = this.headLimit - this.head.length;
      this.head += text.slice(0, room);
      text = text.slice(room);
    }
    if (text.length === 0 || this.tailLimit === 0) return;
    this.tailParts.push(text);
    this.tailLength += text.length;
    // Compacting only when twice over keeps the cost of slicing linear in the input.
    if (this.tailLength > this.tailLimit * 2) this.compactTail();
  }

  private compactTail(): void {
    const joined = this.tailParts.join('');
    const kept = joined.slice(Math.max(0, joined.length - this.tailLimit));
    this.tailParts = [kept];
    this.tailLength = kept.length;
  }

  text(): string {
    this.compactTail();
    const tail = this.tailParts.join('');
    const cut = this.total - this.head.length - tail.length;
    return cut > 0 ? joinCut(this.head, cut, tail) : this.head + tail;
  }
}
