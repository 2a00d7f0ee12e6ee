import type { Billed, CostQuery } from '../core/model.js';
import { costOf, type Price, type Usage } from '../core/usage.js';
import { priceFor } from './anthropic/prices.js';
import { worstCaseCost } from './worst-case.js';

/** What one model's turns cost: its prices looked up once per model id (a response may name another), not on every call. */
export class Billing {
  private readonly prices = new Map<string, Price>();

  constructor(
    private readonly id: string,
    private readonly overrides?: Readonly<Record<string, Price>>,
  ) {}

  private priceOf(model: string): Price {
    let price = this.prices.get(model);
    if (!price) this.prices.set(model, (price = priceFor(model, this.overrides)));
    return price;
  }

  /** A turn's usage and its cost, priced as the model the response names (or this one). */
  bill(model: string | undefined, usage: Usage): Billed {
    return { usage, costUsd: costOf(usage, this.priceOf(model || this.id)) };
  }

  /** The most a request could cost, for the spending limit's check before it is sent. */
  worstCase(request: CostQuery): number {
    return worstCaseCost(request, this.priceOf(this.id));
  }
}
