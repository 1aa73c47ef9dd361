// Token weights at a past block: balanceOf (erc20) and getPastVotes (erc20-votes) read history, not the head.
import { type Address, parseUnits } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Anvil, startAnvil } from '../src/anvil.ts';
import { plenumTokenAbi, plenumVotesTokenAbi } from '../src/artifacts.ts';
import { blockNumber, clients, delegate, deployToken, mine, mint, transfer } from '../src/token.ts';

const units = (n: number) => parseUnits(String(n), 18);

let anvil: Anvil;
beforeAll(async () => {
  anvil = await startAnvil();
});
afterAll(async () => {
  await anvil?.stop();
});

describe('erc20: balanceOf at a block', () => {
  it('reads the balance as of each block, and nothing before the deployment', async () => {
    const [, alice, bob, carol] = anvil.accounts as [any, any, any, any];
    const pub = clients(anvil).public;
    const beforeDeploy = await blockNumber(anvil);
    const token = await deployToken(anvil, { standard: 'erc20', name: 'Plenum', symbol: 'PLN' });
    const balanceAt = (who: Address, block: bigint) =>
      pub.readContract({
        address: token,
        abi: plenumTokenAbi,
        functionName: 'balanceOf',
        args: [who],
        blockNumber: block,
      });

    const minted = (await mint(anvil, token, alice.address, units(10))).blockNumber;
    const moved = (await transfer(anvil, token, { from: alice, to: bob.address, amount: units(4) }))
      .blockNumber;
    await mine(anvil, 3);
    await transfer(anvil, token, { from: bob, to: carol.address, amount: units(1) });

    expect(moved).toBe(minted + 1n); // automine: one block per transaction
    expect(await balanceAt(alice.address, minted - 1n)).toBe(0n);
    expect(await balanceAt(alice.address, minted)).toBe(units(10));
    expect(await balanceAt(alice.address, moved)).toBe(units(6));
    expect(await balanceAt(bob.address, moved)).toBe(units(4));
    expect(await balanceAt(bob.address, moved + 3n)).toBe(units(4));
    expect(await balanceAt(bob.address, await blockNumber(anvil))).toBe(units(3));
    expect(await pub.readContract({ address: token, abi: plenumTokenAbi, functionName: 'decimals' })).toBe(
      18,
    );
    // Before the token existed there is no code: the call returns no data, which viem reports as an error.
    await expect(balanceAt(alice.address, beforeDeploy)).rejects.toThrow(/returned no data/);
  });

  it('only the deployer mints', async () => {
    const [, alice] = anvil.accounts as [any, any];
    const token = await deployToken(anvil, { standard: 'erc20', name: 'Plenum', symbol: 'PLN' });
    await expect(mint(anvil, token, alice.address, 1n, { account: alice })).rejects.toThrow(
      /OwnableUnauthorizedAccount/,
    );
  });
});

describe('erc20-votes: getPastVotes at a block', () => {
  it('counts delegated balances only, as of the block, and refuses the current block', async () => {
    const [, alice, bob, carol] = anvil.accounts as [any, any, any, any];
    const pub = clients(anvil).public;
    const token = await deployToken(anvil, { standard: 'erc20-votes', name: 'Plenum Votes', symbol: 'vPLN' });
    const read = {
      pastVotes: (who: Address, block: bigint) =>
        pub.readContract({
          address: token,
          abi: plenumVotesTokenAbi,
          functionName: 'getPastVotes',
          args: [who, block],
        }),
      votesAt: (who: Address, block: bigint) =>
        pub.readContract({
          address: token,
          abi: plenumVotesTokenAbi,
          functionName: 'getVotes',
          args: [who],
          blockNumber: block,
        }),
      balanceAt: (who: Address, block: bigint) =>
        pub.readContract({
          address: token,
          abi: plenumVotesTokenAbi,
          functionName: 'balanceOf',
          args: [who],
          blockNumber: block,
        }),
      pastTotalSupply: (block: bigint) =>
        pub.readContract({
          address: token,
          abi: plenumVotesTokenAbi,
          functionName: 'getPastTotalSupply',
          args: [block],
        }),
    };

    await mint(anvil, token, alice.address, units(100));
    const minted = (await mint(anvil, token, bob.address, units(50))).blockNumber;
    const aliceSelf = (await delegate(anvil, token, { from: alice, to: alice.address })).blockNumber;
    const snapshot = await mine(anvil, 2); // the proposal's snapshot block
    const moved = (await transfer(anvil, token, { from: alice, to: bob.address, amount: units(30) }))
      .blockNumber;
    const bobToCarol = (await delegate(anvil, token, { from: bob, to: carol.address })).blockNumber;
    await mine(anvil); // getPastVotes needs timepoint < clock()

    // Balances without delegation are no votes.
    expect(await read.balanceAt(bob.address, minted)).toBe(units(50));
    expect(await read.pastVotes(bob.address, minted)).toBe(0n);
    expect(await read.pastVotes(alice.address, aliceSelf - 1n)).toBe(0n);
    expect(await read.pastVotes(alice.address, aliceSelf)).toBe(units(100));
    // At the snapshot: later transfers and delegations do not count.
    expect(await read.pastVotes(alice.address, snapshot)).toBe(units(100));
    expect(await read.pastVotes(carol.address, snapshot)).toBe(0n);
    expect(await read.pastTotalSupply(snapshot)).toBe(units(150));
    // After them: alice's transfer moved 30 votes out; bob's 80 went to carol, who holds no tokens.
    expect(await read.pastVotes(alice.address, moved)).toBe(units(70));
    expect(await read.pastVotes(carol.address, moved)).toBe(0n);
    expect(await read.pastVotes(carol.address, bobToCarol)).toBe(units(80));
    expect(await read.pastVotes(bob.address, bobToCarol)).toBe(0n);
    expect(await read.balanceAt(carol.address, bobToCarol)).toBe(0n);
    // getVotes by eth_call at a block tag reads the same history.
    for (const block of [aliceSelf - 1n, snapshot, moved, bobToCarol]) {
      for (const who of [alice.address, bob.address, carol.address]) {
        expect(await read.votesAt(who, block)).toBe(await read.pastVotes(who, block));
      }
    }
    // The clock is the block number, and the current block is not yet past.
    const head = await blockNumber(anvil);
    expect(await pub.readContract({ address: token, abi: plenumVotesTokenAbi, functionName: 'clock' })).toBe(
      Number(head),
    );
    expect(
      await pub.readContract({ address: token, abi: plenumVotesTokenAbi, functionName: 'CLOCK_MODE' }),
    ).toBe('mode=blocknumber&from=default');
    await expect(read.pastVotes(alice.address, head)).rejects.toThrow(/ERC5805FutureLookup/);
  });
});
