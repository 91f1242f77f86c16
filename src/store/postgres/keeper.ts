/**
 * geo's connection keeper for a team store (docs/store.md "Kept connections"). PostgreSQL starts a
 * backend process for every connection, and a fresh backend plans its first statements with cold
 * caches: 20-40 ms of every team-store command on the bench's VM, more than all of geo's own
 * reads (docs/internals/store-bench.md). The keeper is a small process per user and store URL that
 * keeps a few backends open between commands, like git's credential-cache daemon or ssh's
 * ControlPersist: started, detached, by a command that connected directly (keeper-start.ts);
 * reached through a Unix socket in a folder only its user may enter; gone after GEO_STORE_KEEP
 * without a command.
 *
 * It speaks just enough of the protocol (keeper-wire.ts). It answers a geo process's startup itself
 * (the folder's mode is the authentication, as for ssh-agent: the password stays in the keeper,
 * which logged in with it), replays its backend's parameters and key, then passes bytes both ways.
 * One geo connection holds one backend for its whole session, so transactions, row locks and
 * claims behave exactly as on a direct connection. A backend goes back to the idle set only when
 * its client said goodbye (Terminate) with no query pending and DISCARD ALL then finds no
 * transaction open; any other end (a client killed mid-transaction) closes it, and the server rolls
 * its transaction back as it would for the client itself.
 */
import { chmodSync, lstatSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { type Server, type Socket, connect, createServer } from 'node:net';
import { join } from 'node:path';
import type { Duplex } from 'node:stream';
import { CONNECT_TIMEOUT_MS, KEEPER_PORT, loadPg } from './driver.js';
import {
  AUTH_OK, CANCEL_REQUEST, Framer, GSSENC_REQUEST, PROTOCOL_3, QUERY, READY, READY_IDLE, SSL_REQUEST, SYNC, TERMINATE,
  backendKeyData, fatal, message, parameterStatus, query,
} from './keeper-wire.js';

/** The socket is `.s.PGSQL.<port>` in the keeper's folder: the name node-postgres asks for when host is a folder. */
export const keeperSocket = (dir: string) => join(dir, `.s.PGSQL.${KEEPER_PORT}`);
export const KEEPER_PID = 'keeper.pid';
export const KEEPER_STARTING = 'starting';

export interface KeeperOptions {
  /** The store's URL, password included: it reached this process on stdin, never in argv. */
  url: string;
  /** The folder (mode 0700) that holds the socket and the pid file. */
  dir: string;
  /** How long the keeper waits, with no geo connected, before it closes its backends and exits. */
  lingerMs: number;
}

/** What bin/store-keeper.js gives of its process: the user (the folder must be theirs), the pid file's content, exit. */
export interface KeeperProcess {
  uid: number | undefined;
  pid: number;
  exit(): void;
}

/** Idle backends kept at most (a batch's pool opens up to four connections at once, driver.ts). */
const MAX_IDLE = 4;

interface Backend {
  socket: Duplex;
  /** ParameterStatus and BackendKeyData as the server sent them at login: replayed to each client. */
  hello: Buffer;
  /** While idle: takes it out of the idle set when the server closes it. */
  gone?: () => void;
}

/** A backend logged in by node-postgres (TLS, SCRAM and sslmode as for geo itself), then taken off its parser. */
async function openBackend(url: string, warm: boolean): Promise<Backend> {
  const { Client } = loadPg();
  const client = new Client({ connectionString: url, application_name: 'geo-cli (kept)', connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  // node-postgres's Connection (lib/connection.js): the login's messages, and the socket after it.
  const con = (client as unknown as { connection: NodeJS.EventEmitter & { stream: Duplex } }).connection;
  const hello: Buffer[] = [];
  con.on('parameterStatus', (m: { parameterName: string; parameterValue: string }) => hello.push(parameterStatus(m.parameterName, m.parameterValue)));
  con.on('backendKeyData', (m: { processID: number; secretKey: number }) => hello.push(backendKeyData(m.processID, m.secretKey)));
  client.on('error', () => undefined);
  con.on('error', () => undefined);
  await client.connect();
  // The first statement that reads a table fills the backend's catalog caches (3-4 ms): done here,
  // ahead of the command that will use it, with the statement every command sends first (migrate.ts).
  if (warm) await client.query('SELECT coalesce(max(version), 0) AS v FROM schema_version').catch(() => undefined);
  const socket = con.stream;
  // A server that went away during the warm-up: its socket has closed already, and a closed socket
  // never says so again, so it must not reach the idle set (a command handed it would wait forever).
  if (!usable(socket)) throw new Error('the server closed the connection');
  socket.removeAllListeners('data');
  socket.removeAllListeners('end');
  // Once for its life: its end is seen as 'close', by the idle set or by the session that holds it.
  socket.on('error', () => undefined);
  return { socket, hello: Buffer.concat(hello) };
}

/** Open both ways: neither closed nor half-closed by the server. */
const usable = (s: Duplex) => !s.destroyed && s.writable && s.readable;

/** Replies read whole from a backend until its ReadyForQuery: whether an error came, and the transaction status. */
function replies(socket: Duplex): Promise<{ error: boolean; status: string }> {
  return new Promise((resolve) => {
    let buf = Buffer.alloc(0);
    let error = false;
    const done = (status: string) => {
      socket.off('data', onData);
      socket.off('close', onClose);
      resolve({ error, status });
    };
    const onClose = () => done('closed');
    const onData = (d: Buffer) => {
      buf = Buffer.concat([buf, d]);
      while (buf.length >= 5 && buf.length >= 1 + buf.readInt32BE(1)) {
        const type = buf[0]!;
        const end = 1 + buf.readInt32BE(1);
        if (type === 0x45) error = true; // 'E'
        if (type === READY) return done(String.fromCharCode(buf[5]!));
        buf = buf.subarray(end);
      }
    };
    socket.on('data', onData);
    socket.once('close', onClose);
  });
}

export class Keeper {
  private readonly idle: Backend[] = [];
  private active = 0;
  private linger: NodeJS.Timeout | undefined;
  private server: Server | undefined;

  constructor(
    private readonly o: KeeperOptions,
    private readonly proc: KeeperProcess,
  ) {}

  async start(): Promise<boolean> {
    const { dir } = this.o;
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const st = lstatSync(dir);
    // Only a real folder of this user, closed to others: whoever can reach the socket uses the store as this user.
    if (!st.isDirectory() || (this.proc.uid !== undefined && st.uid !== this.proc.uid)) return false;
    chmodSync(dir, 0o700);
    const path = keeperSocket(dir);
    const server = createServer((c) => this.serve(c));
    try {
      await listen(server, path);
    } catch (err) {
      if ((err as { code?: string }).code !== 'EADDRINUSE') throw err;
      // Another keeper answers there: it keeps the store, this one is not needed.
      if (await answers(path)) return false;
      rmSync(path, { force: true });
      await listen(server, path);
    }
    chmodSync(path, 0o600);
    this.server = server;
    writeFileSync(join(dir, KEEPER_PID), `${this.proc.pid}\n`, { mode: 0o600 });
    rmSync(join(dir, KEEPER_STARTING), { force: true });
    // One backend ready and warm for the next command.
    this.fill();
    this.idleFor();
    return true;
  }

  /** Closes the backends (each told goodbye), removes the socket and the pid file, and exits. */
  stop(): void {
    clearTimeout(this.linger);
    this.server?.close();
    rmSync(keeperSocket(this.o.dir), { force: true });
    rmSync(join(this.o.dir, KEEPER_PID), { force: true });
    for (const be of this.idle.splice(0)) be.socket.end(message('X', Buffer.alloc(0)));
    setTimeout(() => this.proc.exit(), 100).unref();
  }

  private idleFor(): void {
    clearTimeout(this.linger);
    if (this.active === 0) this.linger = setTimeout(() => this.stop(), this.o.lingerMs);
  }

  /** The backend being opened for the idle set, if one is: a command that comes meanwhile waits for it. */
  private filling: Promise<Backend | undefined> | undefined;

  private fill(): void {
    if (this.filling) return;
    this.filling = openBackend(this.o.url, true).then(
      (be) => be,
      () => undefined,
    ).finally(() => {
      this.filling = undefined;
    });
    void this.filling.then((be) => be && this.putIdle(be));
  }

  private putIdle(be: Backend): void {
    if (!usable(be.socket)) return;
    if (this.idle.length >= MAX_IDLE) {
      be.socket.end(message('X', Buffer.alloc(0)));
      return;
    }
    // A backend the server closes while idle (a restart, pg_terminate_backend) leaves the set.
    const gone = () => {
      const i = this.idle.indexOf(be);
      if (i >= 0) this.idle.splice(i, 1);
    };
    be.socket.once('close', gone);
    be.gone = gone;
    this.idle.push(be);
  }

  private async take(): Promise<Backend> {
    // The filling backend joins the idle set before this wait ends (its handler was attached first).
    if (!this.idle.length && this.filling) await this.filling;
    for (let be = this.idle.pop(); be; be = this.idle.pop()) {
      if (be.gone) be.socket.off('close', be.gone);
      if (usable(be.socket)) return be;
    }
    return openBackend(this.o.url, false);
  }

  /** A geo connection: its startup packet first (SSL and GSS encryption declined: the socket never leaves this machine). */
  private serve(client: Socket): void {
    client.on('error', () => undefined);
    this.active++;
    this.idleFor();
    let closed = false;
    let attached = false;
    client.once('close', () => {
      closed = true;
      // Gone before its startup (a probe, a process killed at once): nothing else releases it.
      if (!attached) this.release();
    });
    let packet = Buffer.alloc(0);
    const onStartup = (d: Buffer) => {
      packet = Buffer.concat([packet, d]);
      while (packet.length >= 8 && packet.length >= packet.readInt32BE(0)) {
        const len = packet.readInt32BE(0);
        const code = packet.readInt32BE(4);
        if (code === SSL_REQUEST || code === GSSENC_REQUEST) {
          client.write('N');
          packet = packet.subarray(len);
          continue;
        }
        client.off('data', onStartup);
        client.pause();
        attached = true;
        // geo never cancels a query (no CancelRequest); anything but protocol 3.0 is refused.
        if (code !== PROTOCOL_3) {
          if (code === CANCEL_REQUEST) client.end();
          else client.end(fatal('08P01', 'geo keeper: unsupported protocol'));
          this.release();
          return;
        }
        void this.attach(client, packet.subarray(len), () => closed);
        return;
      }
    };
    client.on('data', onStartup);
  }

  private release(): void {
    this.active--;
    this.idleFor();
  }

  private async attach(client: Socket, rest: Buffer, isClosed: () => boolean): Promise<void> {
    let be: Backend;
    try {
      be = await this.take();
    } catch (err) {
      const e = err as { code?: string; message?: string };
      // The server's own SQLSTATE when it gave one (a refused login), else "connection failure":
      // geo reports the store as unreachable with its usual hint (driver.ts pgError).
      const code = /^[0-9A-Z]{5}$/.test(String(e.code ?? '')) ? String(e.code) : '08006';
      client.end(fatal(code, `could not connect to the server: ${String(e.message ?? err).split(this.o.url).join('the store')}`));
      this.release();
      return;
    }
    if (isClosed()) {
      this.putIdle(be);
      this.release();
      return;
    }
    client.write(Buffer.concat([AUTH_OK, be.hello, READY_IDLE]));

    // Syncs and Queries sent minus ReadyForQuerys received: zero when the server owes nothing.
    let pending = 0;
    let goodbye: 'none' | 'clean' | 'torn' = 'none';
    let byeAt = -1;
    const fromClient = new Framer((type, offset) => {
      if (type === QUERY || type === SYNC) pending++;
      else if (type === TERMINATE && goodbye === 'none') {
        goodbye = offset >= 0 ? 'clean' : 'torn';
        byeAt = Math.max(0, offset);
      }
    });
    const fromServer = new Framer((type) => {
      if (type === READY) pending--;
    });
    // Backpressure both ways: the side that reads is paused until the other has written its backlog.
    const resumeClient = () => client.resume();
    const resumeServer = () => be.socket.resume();
    const onClient = (d: Buffer) => {
      if (goodbye !== 'none') return;
      fromClient.push(d);
      // The goodbye stays here: the backend lives on for the next command.
      const pass = goodbye === 'none' ? d : d.subarray(0, byeAt);
      if (pass.length && !be.socket.write(pass) && !client.isPaused()) {
        client.pause();
        be.socket.once('drain', resumeClient);
      }
      if (goodbye !== 'none') client.end();
    };
    const onServer = (d: Buffer) => {
      fromServer.push(d);
      if (!client.write(d) && !be.socket.isPaused()) {
        be.socket.pause();
        client.once('drain', resumeServer);
      }
    };
    const onServerGone = () => client.destroy();
    be.socket.on('data', onServer);
    // Either ends the session: a backend that is gone never leaves a command waiting for its answer.
    be.socket.once('close', onServerGone);
    be.socket.on('error', onServerGone);
    client.on('data', onClient);
    client.once('close', () => {
      be.socket.off('data', onServer);
      be.socket.off('close', onServerGone);
      be.socket.off('error', onServerGone);
      be.socket.off('drain', resumeClient);
      be.socket.resume();
      if (goodbye === 'clean' && pending === 0) void this.reset(be);
      else {
        be.socket.destroy();
        if (!this.idle.length) this.fill();
      }
      this.release();
    });
    if (rest.length) onClient(rest);
    client.resume();
  }

  /** Back to the idle set after DISCARD ALL (session state dropped), unless a transaction was left open. */
  private async reset(be: Backend): Promise<void> {
    const answer = replies(be.socket);
    be.socket.write(query('DISCARD ALL'));
    const { error, status } = await answer;
    if (!error && status === 'I') this.putIdle(be);
    else be.socket.destroy();
  }
}

function listen(server: Server, path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** Whether something accepts connections on the socket (a live keeper), within a second. */
function answers(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect(path);
    const done = (ok: boolean) => {
      s.destroy();
      resolve(ok);
    };
    s.once('connect', () => done(true));
    s.once('error', () => done(false));
    s.setTimeout(1000, () => done(false));
  });
}
