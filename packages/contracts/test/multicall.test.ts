// Batched weight reads at a past block: viem multicall, deployless and through Multicall3.
import {
  type Address,
  getContractAddress,
  keccak256,
  parseEther,
  parseUnits,
  recoverTransactionAddress,
} from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Anvil, startAnvil } from '../src/anvil.ts';
import { plenumTokenAbi, plenumVotesTokenAbi } from '../src/artifacts.ts';
import {
  MULTICALL3_ADDRESS,
  MULTICALL3_DEPLOY_TX,
  MULTICALL3_DEPLOYER,
  MULTICALL3_RUNTIME,
} from '../src/multicall3.ts';
import {
  blockNumber,
  clients,
  delegate,
  deployMulticall3,
  deployToken,
  mine,
  mint,
  transfer,
} from '../src/token.ts';

const units = (n: number) => parseUnits(String(n), 18);

let anvil: Anvil;
let erc20: Address;
let votes: Address;
let snapshot: bigint;
let holders: Address[];
/** Expected weights at the snapshot, in holder order. */
const expectedBalances = [units(60), units(40), units(0), units(0)];
const expectedVotes = [units(60), units(0), units(40), units(0)];

beforeAll(async () => {
  anvil = await startAnvil();
  const [, alice, bob, carol, dave] = anvil.accounts as [any, any, any, any, any];
  holders = [alice.address, bob.address, carol.address, dave.address];
  // Multicall3 goes in first, so that it has code at every block the tests read.
  await deployMulticall3(anvil);
  erc20 = await deployToken(anvil, { standard: 'erc20', name: 'Plenum', symbol: 'PLN' });
  votes = await deployToken(anvil, { standard: 'erc20-votes', name: 'Plenum Votes', symbol: 'vPLN' });
  for (const token of [erc20, votes]) {
    await mint(anvil, token, alice.address, units(60));
    await mint(anvil, token, bob.address, units(40));
  }
  await delegate(anvil, votes, { from: alice, to: alice.address });
  await delegate(anvil, votes, { from: bob, to: carol.address });
  snapshot = await mine(anvil);
  // After the snapshot: none of this may show in reads at the snapshot.
  for (const token of [erc20, votes]) {
    await transfer(anvil, token, { from: alice, to: dave.address, amount: units(25) });
  }
  await delegate(anvil, votes, { from: dave, to: dave.address });
  await mine(anvil);
});
afterAll(async () => {
  await anvil?.stop();
});

const balanceCalls = () =>
  holders.map(
    (h) => ({ address: erc20, abi: plenumTokenAbi, functionName: 'balanceOf', args: [h] }) as const,
  );
const voteCalls = () =>
  holders.map(
    (h) =>
      ({
        address: votes,
        abi: plenumVotesTokenAbi,
        functionName: 'getPastVotes',
        args: [h, snapshot],
      }) as const,
  );

describe('multicall at a past block', () => {
  it('deployless (no Multicall3 needed): balanceOf at the block and getPastVotes', async () => {
    const pub = clients(anvil).public;
    const balances = await pub.multicall({
      contracts: balanceCalls(),
      blockNumber: snapshot,
      deployless: true,
      allowFailure: false,
    });
    const pastVotes = await pub.multicall({ contracts: voteCalls(), deployless: true, allowFailure: false });
    expect(balances).toEqual(expectedBalances);
    expect(pastVotes).toEqual(expectedVotes);
    // Latest differs: the post-snapshot transfer shows there.
    const latest = await pub.multicall({ contracts: balanceCalls(), deployless: true, allowFailure: false });
    expect(latest).toEqual([units(35), units(40), units(0), units(25)]);
  });

  it('through Multicall3 at 0xcA11…: the same weights, and per-call failures with allowFailure', async () => {
    const pub = clients(anvil).public;
    const balances = await pub.multicall({
      contracts: balanceCalls(),
      blockNumber: snapshot,
      multicallAddress: MULTICALL3_ADDRESS,
      allowFailure: false,
    });
    expect(balances).toEqual(expectedBalances);
    // getVotes by eth_call at the snapshot block equals getPastVotes(…, snapshot).
    const votesAt = await pub.multicall({
      contracts: holders.map(
        (h) => ({ address: votes, abi: plenumVotesTokenAbi, functionName: 'getVotes', args: [h] }) as const,
      ),
      blockNumber: snapshot,
      multicallAddress: MULTICALL3_ADDRESS,
      allowFailure: false,
    });
    expect(votesAt).toEqual(expectedVotes);
    // getPastVotes at the head reverts (ERC5805FutureLookup); with allowFailure the batch still answers.
    const head = await blockNumber(anvil);
    const mixed = await pub.multicall({
      contracts: [
        {
          address: votes,
          abi: plenumVotesTokenAbi,
          functionName: 'getPastVotes',
          args: [holders[0]!, snapshot],
        },
        { address: votes, abi: plenumVotesTokenAbi, functionName: 'getPastVotes', args: [holders[0]!, head] },
      ],
      multicallAddress: MULTICALL3_ADDRESS,
    });
    expect(mixed[0]).toEqual({ status: 'success', result: units(60) });
    expect(mixed[1]?.status).toBe('failure');
    expect(String(mixed[1]?.error)).toMatch(/ERC5805FutureLookup/);
  });

  it('anvil_setCode does not reach back: before the setCode block, Multicall3 has no code', async () => {
    const other = await startAnvil();
    try {
      await mine(other, 2);
      const before = await blockNumber(other);
      await deployMulticall3(other);
      const pub = clients(other).public;
      expect(await pub.getCode({ address: MULTICALL3_ADDRESS, blockNumber: before - 1n })).toBeUndefined();
      const call = { address: MULTICALL3_ADDRESS, abi: plenumTokenAbi, functionName: 'decimals' } as const;
      const at = (blockNumber: bigint) =>
        pub.multicall({
          contracts: [call],
          blockNumber,
          multicallAddress: MULTICALL3_ADDRESS,
          allowFailure: false,
        });
      await expect(at(before - 1n)).rejects.toThrow(/returned no data/);
      // The code set lands in the head's state (no block is mined): there the batch runs, and only the
      // call inside fails (Multicall3 has no decimals()).
      expect(await pub.getCode({ address: MULTICALL3_ADDRESS, blockNumber: before })).toBe(
        MULTICALL3_RUNTIME,
      );
      await expect(at(before)).rejects.toThrow(/decimals\(\)/);
    } finally {
      await other.stop();
    }
  });
});

describe('Multicall3 code', () => {
  it('comes from the signed keyless deployment: its signer at nonce 0 deploys at 0xcA11…', async () => {
    const signer = await recoverTransactionAddress({ serializedTransaction: MULTICALL3_DEPLOY_TX as any });
    expect(signer).toBe(MULTICALL3_DEPLOYER);
    expect(getContractAddress({ from: signer, nonce: 0n })).toBe(MULTICALL3_ADDRESS);
    expect(keccak256(MULTICALL3_DEPLOY_TX)).toBe(
      '0x07471adfe8f4ec553c1199f495be97fc8be8e0626ae307281c22534460184ed1',
    );
  });

  it('equals what that transaction deploys when broadcast on a fresh anvil', async () => {
    const fresh = await startAnvil();
    try {
      const { wallet, public: pub } = clients(fresh);
      // The deployer pays 100 gwei × 1,000,000 gas.
      const fund = await wallet.sendTransaction({
        account: fresh.accounts[0]!,
        to: MULTICALL3_DEPLOYER,
        value: parseEther('0.1'),
      });
      await pub.waitForTransactionReceipt({ hash: fund });
      const hash = await pub.sendRawTransaction({ serializedTransaction: MULTICALL3_DEPLOY_TX });
      const receipt = await pub.waitForTransactionReceipt({ hash });
      expect(receipt.status).toBe('success');
      expect(receipt.contractAddress?.toLowerCase()).toBe(MULTICALL3_ADDRESS.toLowerCase());
      expect(await pub.getCode({ address: MULTICALL3_ADDRESS })).toBe(MULTICALL3_RUNTIME);
    } finally {
      await fresh.stop();
    }
  });
});
