// @plenum/contracts: test tokens (compiled, committed artifacts), a local anvil chain and viem helpers
// for the token-weighted voting tests. See README.md.
export {
  ANVIL_CHAIN_ID,
  ANVIL_MNEMONIC,
  type Anvil,
  anvilBinary,
  type StartAnvilOptions,
  startAnvil,
} from './anvil.ts';
export {
  artifactFor,
  artifacts,
  plenumTokenAbi,
  plenumTokenBytecode,
  plenumVotesTokenAbi,
  plenumVotesTokenBytecode,
  solcVersion,
  type TokenStandard,
} from './artifacts.ts';
export {
  MULTICALL3_ADDRESS,
  MULTICALL3_DEPLOY_TX,
  MULTICALL3_DEPLOYER,
  MULTICALL3_RUNTIME,
} from './multicall3.ts';
export {
  anvilChain,
  blockNumber,
  type ChainHandle,
  type Clients,
  clients,
  type DeployTokenOptions,
  delegate,
  deployMulticall3,
  deployToken,
  mine,
  mint,
  transfer,
} from './token.ts';
