/** The proposal record (docs/governance.md, "The proposal record"): blocks, builder, proofs, recount. */

export * from './attest';
export * from './block';
export * from './build';
export * from './format';
export * from './merkle';
export * from './publish';
export * from './publisher';
export * from './read';
export * from './recount';
export * from './sources';
