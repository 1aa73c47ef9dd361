/** @plenum/verify: recounts a proposal record offline (docs/governance.md, "The verifier"). */

export { CHECKS, type Check, type Failure } from './failures';
export { type Verdict, type VerifyOptions, verifyRecord } from './verify';
