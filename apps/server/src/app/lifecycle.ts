/** Where this instance is in its stop (docs/operations.md, "Shutdown"). */
export interface Lifecycle {
  /** it has begun to stop: /ready answers 503 so a load balancer drains it first */
  draining: boolean;
  /** it stops: new requests are refused (503 SHUTTING_DOWN) while those in flight finish */
  closing: boolean;
}
