// The anvil handle: start, stop (no process left), restart, pause/resume with history, freeze/thaw, and
// cleanup when the owning process ends without stop().
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { parseUnits } from 'viem';
import { describe, expect, it } from 'vitest';
import { startAnvil } from '../src/anvil.ts';
import { plenumVotesTokenAbi } from '../src/artifacts.ts';
import { blockNumber, clients, delegate, deployToken, mine, mint } from '../src/token.ts';
import { processExists, waitFor } from './helpers.ts';

const PKG = resolve(import.meta.dirname, '..');

async function rpcAnswers(url: string, timeoutMs = 1000): Promise<boolean> {
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    return response.ok;
  } catch {
    return false;
  }
}

describe('startAnvil', () => {
  it('answers on its port with the chain id asked for, with 10 funded dev accounts', async () => {
    const anvil = await startAnvil({ chainId: 4242 });
    try {
      expect(anvil.url).toBe(`http://127.0.0.1:${anvil.port}`);
      expect(anvil.chainId).toBe(4242);
      expect(await clients(anvil).public.getChainId()).toBe(4242);
      expect(anvil.accounts).toHaveLength(10);
      expect(anvil.accounts[0]!.address).toBe('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266');
      expect(await clients(anvil).public.getBalance({ address: anvil.accounts[9]!.address })).toBe(
        parseUnits('10000', 18),
      );
    } finally {
      await anvil.stop();
    }
  });

  it('stop() leaves no process behind and closes the port', async () => {
    const anvil = await startAnvil();
    const pid = anvil.pid!;
    expect(processExists(pid)).toBe(true);
    await anvil.stop();
    expect(anvil.pid).toBeUndefined();
    expect(processExists(pid)).toBe(false);
    expect(await rpcAnswers(anvil.url)).toBe(false);
    await anvil.stop(); // idempotent
  });

  it('a bad argument fails fast with anvil’s stderr in the error', async () => {
    await expect(startAnvil({ args: ['--no-such-flag'] })).rejects.toThrow(
      /exited before answering[\s\S]*no-such-flag/,
    );
  });

  it('with blockTime, blocks come without transactions', async () => {
    const anvil = await startAnvil({ blockTime: 1 });
    try {
      const start = await blockNumber(anvil);
      await waitFor(async () => (await blockNumber(anvil)) >= start + 2n, 'two interval-mined blocks');
    } finally {
      await anvil.stop();
    }
  });

  it('restart() keeps the port and starts from genesis', async () => {
    const anvil = await startAnvil();
    try {
      const firstPid = anvil.pid!;
      await mine(anvil, 5);
      expect(await blockNumber(anvil)).toBe(5n);
      await anvil.restart();
      expect(processExists(firstPid)).toBe(false);
      expect(anvil.pid).not.toBe(firstPid);
      expect(await blockNumber(anvil)).toBe(0n);
    } finally {
      await anvil.stop();
    }
  });

  it('pause() refuses connections; resume() brings back the same chain and its history', async () => {
    const anvil = await startAnvil();
    try {
      const [, alice] = anvil.accounts as [any, any];
      const token = await deployToken(anvil, { standard: 'erc20-votes', name: 'V', symbol: 'V' });
      await mint(anvil, token, alice.address, 100n);
      const delegated = (await delegate(anvil, token, { from: alice, to: alice.address })).blockNumber;
      const head = await mine(anvil, 3);
      const pastVotes = (block: bigint) =>
        clients(anvil).public.readContract({
          address: token,
          abi: plenumVotesTokenAbi,
          functionName: 'getPastVotes',
          args: [alice.address, block],
        });
      const balanceAt = (block: bigint) =>
        clients(anvil).public.readContract({
          address: token,
          abi: plenumVotesTokenAbi,
          functionName: 'balanceOf',
          args: [alice.address],
          blockNumber: block,
        });

      const pid = anvil.pid!;
      await anvil.pause();
      expect(processExists(pid)).toBe(false);
      expect(await rpcAnswers(anvil.url)).toBe(false);
      await expect(blockNumber(anvil)).rejects.toThrow();

      await anvil.resume();
      expect(await blockNumber(anvil)).toBe(head);
      expect(await pastVotes(delegated - 1n)).toBe(0n);
      expect(await pastVotes(delegated)).toBe(100n);
      expect(await balanceAt(delegated - 2n)).toBe(0n); // before the mint: state at an old block
      expect(await balanceAt(delegated)).toBe(100n);
      // The chain goes on, and can be paused again.
      await mint(anvil, token, alice.address, 1n);
      await anvil.pause();
      await anvil.resume();
      expect(await blockNumber(anvil)).toBe(head + 1n);
      expect(await pastVotes(head)).toBe(100n);
      expect(await balanceAt(head + 1n)).toBe(101n);
    } finally {
      await anvil.stop();
    }
  });

  it('freeze() makes requests hang until thaw()', async () => {
    const anvil = await startAnvil();
    try {
      anvil.freeze();
      expect(await rpcAnswers(anvil.url, 300)).toBe(false);
      const held = rpcAnswers(anvil.url, 10_000);
      anvil.thaw();
      expect(await held).toBe(true);
    } finally {
      await anvil.stop();
    }
  });
});

describe('cleanup when the owner dies without stop()', () => {
  /** Runs a Node child that starts anvil, prints its pid, then does `then`; returns the anvil pid. */
  async function orphan(
    then: 'exit' | 'hang',
  ): Promise<{ anvilPid: number; child: ReturnType<typeof spawn> }> {
    const script = `
      import { startAnvil } from './src/anvil.ts';
      const anvil = await startAnvil();
      console.log(anvil.pid);
      ${then === 'exit' ? 'process.exit(0);' : 'setInterval(() => {}, 1000);'}
    `;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
      cwd: PKG,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const lines = createInterface({ input: child.stdout! });
    const first = await new Promise<string>((resolveLine, reject) => {
      lines.once('line', resolveLine);
      child.once('exit', (code) => reject(new Error(`child exited (${code}) before printing the pid`)));
    });
    const anvilPid = Number(first);
    expect(anvilPid).toBeGreaterThan(0);
    return { anvilPid, child };
  }

  it('process.exit() without stop(): anvil is killed (exit hook, watchdog as a second line)', async () => {
    const { anvilPid } = await orphan('exit');
    await waitFor(() => !processExists(anvilPid), `anvil ${anvilPid} to be gone`);
  });

  it('SIGKILL of the owner: the watchdog kills anvil', async () => {
    const { anvilPid, child } = await orphan('hang');
    expect(processExists(anvilPid)).toBe(true);
    child.kill('SIGKILL');
    await waitFor(() => !processExists(anvilPid), `anvil ${anvilPid} to be gone`);
  });
});
