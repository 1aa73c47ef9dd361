// Foundry's anvil (npm @foundry-rs/anvil-linux-amd64) as a throwaway local chain for tests.
//
// startAnvil() spawns the binary on a free 127.0.0.1 port and resolves once the RPC answers eth_chainId.
// Cleanup is layered so that a crashed or killed test run leaves no anvil behind:
//   - anvil runs in its own process group; stop() SIGKILLs the group and waits for the exit;
//   - a process 'exit' hook SIGKILLs every instance still running when Node exits normally;
//   - a watchdog (`sh`, in its own process group, ignoring INT/TERM/HUP) holds a pipe from this process and
//     SIGKILLs the anvil group when the pipe closes, i.e. when this process dies in any way, SIGKILL included.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { toHex } from 'viem';
import { mnemonicToAccount, type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts';

/** anvil's default dev mnemonic; its first accounts are funded with 10,000 ETH each. */
export const ANVIL_MNEMONIC = 'test test test test test test test test test test test junk';
/** anvil's default chain id. */
export const ANVIL_CHAIN_ID = 31337;
const ACCOUNT_COUNT = 10;

export const anvilBinary = resolve(
  dirname(fileURLToPath(import.meta.url)),
  '../node_modules/@foundry-rs/anvil-linux-amd64/bin/anvil',
);

export interface StartAnvilOptions {
  /** --chain-id; default 31337. */
  chainId?: number;
  /** --block-time in seconds (interval mining); default: automine, one block per transaction. */
  blockTime?: number;
  /** Further anvil arguments. Do not change the mnemonic or the account count here: `accounts` assumes
   * anvil's defaults. */
  args?: string[];
  /** Overall bound for the process to answer eth_chainId, per start; default 20 s. */
  readyTimeoutMs?: number;
}

export interface Anvil {
  /** http://127.0.0.1:<port>; stays the same across restart() and pause()/resume(). */
  readonly url: string;
  readonly chainId: number;
  readonly port: number;
  /** anvil's first 10 dev accounts (default mnemonic), each funded with 10,000 ETH at genesis. */
  readonly accounts: PrivateKeyAccount[];
  /** pid of the running anvil, undefined while stopped or paused. */
  readonly pid: number | undefined;
  /** Kills anvil (SIGKILL to its process group) and waits until it has exited. Idempotent. */
  stop(): Promise<void>;
  /** Kills anvil and starts a fresh one on the same port. The chain state is LOST (back to genesis). */
  restart(): Promise<void>;
  /** Stops anvil and keeps its state: SIGINT makes anvil dump its chain (blocks, state and the historical
   * states, so reads at past blocks still work) to a file; the port refuses connections until resume(). */
  pause(): Promise<void>;
  /** Starts anvil again on the same port from the state dumped by pause(): same blocks, same history. */
  resume(): Promise<void>;
  /** SIGSTOPs anvil: the port stays bound but requests hang (an unresponsive RPC rather than a refused one). */
  freeze(): void;
  /** SIGCONTs a frozen anvil; the requests held meanwhile are then answered. */
  thaw(): void;
}

/** Every anvil process this module started and has not seen exit, for the exit hook. */
const live = new Set<ChildProcess>();
let exitHookInstalled = false;

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const child of live) killGroup(child, 'SIGKILL');
  });
}

/** A port the kernel just handed out and released; anvil binds it right after (a collision is retried). */
async function freePort(): Promise<number> {
  return await new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (port ? resolvePort(port) : reject(new Error('no port assigned'))));
    });
  });
}

async function rpcChainId(url: string, timeoutMs: number): Promise<number | undefined> {
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!response.ok) return undefined;
    const body = (await response.json()) as { result?: string };
    return body.result ? Number(body.result) : undefined;
  } catch {
    return undefined;
  }
}

function deriveAccounts(): PrivateKeyAccount[] {
  return Array.from({ length: ACCOUNT_COUNT }, (_, addressIndex) => {
    const key = mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex }).getHdKey().privateKey;
    if (!key) throw new Error(`no private key for account ${addressIndex}`);
    return privateKeyToAccount(toHex(key));
  });
}

interface Running {
  child: ChildProcess;
  watchdog: ChildProcess;
  exited: Promise<void>;
}

class AnvilStartError extends Error {
  readonly addressInUse: boolean;
  constructor(message: string, addressInUse: boolean) {
    super(message);
    this.name = 'AnvilStartError';
    this.addressInUse = addressInUse;
  }
}

/** Spawns anvil on `port` and resolves when it answers eth_chainId with `chainId`. */
async function spawnAnvil(
  port: number,
  chainId: number,
  args: string[],
  readyTimeoutMs: number,
): Promise<Running> {
  const child = spawn(anvilBinary, ['--host', '127.0.0.1', '--port', String(port), ...args], {
    detached: true, // own process group: stop() kills the group, and a terminal's Ctrl-C does not reach it
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  child.unref();
  let stderr = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-8000);
  });
  (child.stderr as unknown as { unref?: () => void } | null)?.unref?.();

  let exitInfo: string | undefined;
  const exited = new Promise<void>((resolveExit) => {
    child.once('exit', (code, signal) => {
      exitInfo = signal ? `signal ${signal}` : `code ${code}`;
      live.delete(child);
      resolveExit();
    });
    child.once('error', (error) => {
      exitInfo = `spawn error: ${error.message}`;
      live.delete(child);
      resolveExit();
    });
  });
  live.add(child);
  installExitHook();

  // The watchdog: reads its stdin (a pipe from this process) until EOF, then kills the anvil group.
  const watchdog = spawn(
    'sh',
    ['-c', `trap '' INT TERM HUP; while read -r _; do :; done; kill -9 -${child.pid} 2>/dev/null`],
    { detached: true, stdio: ['pipe', 'ignore', 'ignore'] },
  );
  watchdog.unref();
  (watchdog.stdin as unknown as { unref?: () => void } | null)?.unref?.();
  // anvil gone (stopped or crashed): the watchdog has nothing left to guard.
  void exited.then(() => watchdog.kill('SIGKILL'));

  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + readyTimeoutMs;
  let delay = 10;
  let answered: number | undefined;
  while (Date.now() < deadline && exitInfo === undefined) {
    answered = await rpcChainId(url, Math.min(2000, Math.max(1, deadline - Date.now())));
    if (answered !== undefined) break;
    // Poll again soon, or as soon as the process exits.
    await Promise.race([new Promise((r) => setTimeout(r, delay)), exited]);
    delay = Math.min(delay * 2, 200);
  }
  const fail = (why: string, addressInUse = false): never => {
    killGroup(child, 'SIGKILL');
    watchdog.kill('SIGKILL');
    throw new AnvilStartError(
      `anvil on port ${port}: ${why}\n  command: ${anvilBinary} ${child.spawnargs.slice(1).join(' ')}` +
        `\n  stderr: ${stderr.trim() || '(empty)'}`,
      addressInUse,
    );
  };
  if (answered === undefined) {
    if (exitInfo !== undefined)
      fail(`exited before answering (${exitInfo})`, /address already in use/i.test(stderr));
    fail(`did not answer eth_chainId within ${readyTimeoutMs} ms`);
  }
  if (answered !== chainId) fail(`answered chain id ${answered}, expected ${chainId}`);
  return { child, watchdog, exited };
}

async function terminate(running: Running, signal: NodeJS.Signals): Promise<void> {
  // the child is unref'd while it runs; waiting for its exit must keep an otherwise idle loop alive
  running.child.ref();
  running.watchdog.kill('SIGKILL');
  killGroup(running.child, signal);
  await running.exited;
}

/**
 * Starts anvil on a free 127.0.0.1 port. See {@link Anvil} for the handle; call stop() when done (an exit
 * hook and a watchdog kill it anyway if the process ends first).
 */
export async function startAnvil(options: StartAnvilOptions = {}): Promise<Anvil> {
  const chainId = options.chainId ?? ANVIL_CHAIN_ID;
  const readyTimeoutMs = options.readyTimeoutMs ?? 20_000;
  const stateDir = mkdtempSync(join(tmpdir(), 'plenum-anvil-'));
  const stateFile = join(stateDir, 'state.json');
  const baseArgs = [
    '--silent',
    '--chain-id',
    String(chainId),
    ...(options.blockTime !== undefined ? ['--block-time', String(options.blockTime)] : []),
    // Written when anvil gets SIGINT (pause); keeps the per-block states so past-block reads survive.
    '--dump-state',
    stateFile,
    '--preserve-historical-states',
    ...(options.args ?? []),
  ];

  let port = 0;
  let running: Running | undefined;
  for (let attempt = 1; !running; attempt++) {
    port = await freePort();
    try {
      running = await spawnAnvil(port, chainId, baseArgs, readyTimeoutMs);
    } catch (error) {
      // Another process took the port between freePort() and anvil's bind: try another one.
      if (!(error instanceof AnvilStartError && error.addressInUse && attempt < 5)) {
        rmSync(stateDir, { recursive: true, force: true });
        throw error;
      }
    }
  }
  let current: Running | undefined = running;
  let paused = false;
  let stopped = false;
  const url = `http://127.0.0.1:${port}`;

  const ensureNotStopped = (what: string) => {
    if (stopped) throw new Error(`anvil ${url}: ${what} after stop()`);
  };

  return {
    url,
    chainId,
    port,
    accounts: deriveAccounts(),
    get pid() {
      return current?.child.pid;
    },
    async stop() {
      stopped = true;
      if (current) await terminate(current, 'SIGKILL');
      current = undefined;
      rmSync(stateDir, { recursive: true, force: true });
    },
    async restart() {
      ensureNotStopped('restart()');
      if (current) await terminate(current, 'SIGKILL');
      current = undefined;
      rmSync(stateFile, { force: true });
      paused = false;
      current = await spawnAnvil(port, chainId, baseArgs, readyTimeoutMs);
    },
    async pause() {
      ensureNotStopped('pause()');
      if (!current) throw new Error(`anvil ${url}: pause() while not running`);
      rmSync(stateFile, { force: true });
      const { child } = current;
      current.watchdog.kill('SIGKILL');
      child.ref(); // keep the loop alive until it has exited (see terminate)
      child.kill('SIGINT'); // anvil's Ctrl-C path dumps the state to --dump-state, then exits
      await current.exited;
      current = undefined;
      if (!existsSync(stateFile)) {
        throw new Error(`anvil ${url}: exited on SIGINT without writing its state to ${stateFile}`);
      }
      paused = true;
    },
    async resume() {
      ensureNotStopped('resume()');
      if (!paused) throw new Error(`anvil ${url}: resume() without pause()`);
      current = await spawnAnvil(port, chainId, [...baseArgs, '--load-state', stateFile], readyTimeoutMs);
      paused = false;
    },
    freeze() {
      if (current) killGroup(current.child, 'SIGSTOP');
    },
    thaw() {
      if (current) killGroup(current.child, 'SIGCONT');
    },
  };
}
