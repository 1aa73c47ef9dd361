/**
 * How many requests this instance has answered, counted by the request pipeline, so background work can
 * yield to them: the webhook sender slows down while requests come fast (docs/webhooks.md, "Speed").
 */
export class RequestLoad {
  answered = 0;

  /** answered requests per second since `since` (a snapshot of `answered` and the time it was taken) */
  rateSince(since: { answered: number; at: number }, now = performance.now()): number {
    const seconds = (now - since.at) / 1000;
    return seconds > 0 ? (this.answered - since.answered) / seconds : 0;
  }

  snapshot() {
    return { answered: this.answered, at: performance.now() };
  }
}
