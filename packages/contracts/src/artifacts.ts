// The compiled test tokens. The ABIs are `as const` so that viem infers function names, arguments and
// results. Source of truth: artifacts/*.json, written with src/artifacts.generated.ts by scripts/compile.mjs.
import {
  plenumTokenAbi,
  plenumTokenBytecode,
  plenumTokenSourceHash,
  plenumVotesTokenAbi,
  plenumVotesTokenBytecode,
  plenumVotesTokenSourceHash,
  solcVersion,
} from './artifacts.generated.ts';

export { plenumTokenAbi, plenumTokenBytecode, plenumVotesTokenAbi, plenumVotesTokenBytecode, solcVersion };

/** The token standards Plenum reads weights from. */
export type TokenStandard = 'erc20' | 'erc20-votes';

export const artifacts = {
  PlenumToken: { abi: plenumTokenAbi, bytecode: plenumTokenBytecode, sourceHash: plenumTokenSourceHash },
  PlenumVotesToken: {
    abi: plenumVotesTokenAbi,
    bytecode: plenumVotesTokenBytecode,
    sourceHash: plenumVotesTokenSourceHash,
  },
} as const;

/** The contract deployed for each standard: `erc20` → PlenumToken, `erc20-votes` → PlenumVotesToken. */
export const artifactFor = {
  erc20: artifacts.PlenumToken,
  'erc20-votes': artifacts.PlenumVotesToken,
} as const;
