/** How a run ended; the action's `conclusion` output. */
export type Conclusion =
  'success' | 'max-steps' | 'budget' | 'timeout' | 'cancelled' | 'refusal' | 'stopped' | 'unverified' | 'undelivered' | 'error';

export interface Stop {
  conclusion: Conclusion;
  /** Why, in words; empty on success. */
  reason: string;
}
