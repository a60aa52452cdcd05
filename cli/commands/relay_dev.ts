/**
 * `larkit relay dev --listen 127.0.0.1:PORT` runs the dev relay until interrupted; `larkit relay client`
 * is the by-hand remote client: JSON-RPC messages in on stdin (one per line), every server message out on
 * stdout as NDJSON, through a stream of the dev relay.
 */
import * as z from "zod";
import { flag } from "../../shortcuts/declare.ts";
import { refusedInTurns } from "../command_meta.ts";
import { type CommandModule, defineCommand } from "../resolve/declare.ts";
import { emitRendered, emitText } from "../output/emit.ts";
import { errors } from "../output/errors.ts";
import { untilAborted } from "../provider.ts";
import { DevRelay } from "../../relay/dev_relay.ts";
import { HandshakeRefused, redeemPairingCode, RemoteClient } from "../../relay/remote_client.ts";

const listenSchema = z.string().check(z.regex(/^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|localhost):\d{1,5}$/));

const dev = defineCommand({
  words: ["relay", "dev"],
  description:
    "run a loopback relay as strict as production (tokens, refresh, pings; faults at POST /dev/faults)",
  flags: {
    listen: flag.defaulted("loopback address to listen on", "127.0.0.1:0", { placeholder: "host:port" }),
    "token-ttl-ms": flag.defaulted("lifetime of the server tokens it issues", "3600000", {
      placeholder: "ms",
    }),
    tokens: flag.negatable(
      "behave like the seed's simpler relay: no server tokens, account headers on the handshake",
    ),
    "allow-unpaired": flag.boolean(
      "by hand only: let a client id that was never paired connect without a token (production refuses it)",
    ),
  },
  turn: refusedInTurns("starts a listener on this machine"),
  async action(ctx, { flags }) {
    const opts = {
      listen: flags.listen,
      tokenTtlMs: flags["token-ttl-ms"],
      tokens: flags.tokens,
      allowUnpaired: flags["allow-unpaired"],
    };
    const listen = listenSchema.safeParse(opts.listen);
    if (!listen.success) {
      throw errors.validation(`--listen must be a loopback host:port, got "${opts.listen}"`, {
        hint: "use --listen 127.0.0.1:8787",
      });
    }
    const ttl = z.coerce.number().check(z.int(), z.minimum(1), z.maximum(7 * 24 * 3600_000)).safeParse(
      opts.tokenTtlMs,
    );
    if (!ttl.success) {
      throw errors.validation(
        `--token-ttl-ms must be a positive number of milliseconds, got "${opts.tokenTtlMs}"`,
      );
    }
    const at = listen.data.lastIndexOf(":");
    const server = DevRelay.start({
      hostname: listen.data.slice(0, at),
      port: Number(listen.data.slice(at + 1)),
      clock: ctx.p.clock,
      log: (line) => void ctx.diag.info(line),
      tokens: opts.tokens,
      tokenTtlMs: ttl.data,
      allowUnpaired: opts.allowUnpaired === true,
    });
    if (opts.allowUnpaired === true) {
      await ctx.diag.warn(
        "--allow-unpaired: any client id that was never paired may connect without a token; the production relay refuses it (pair devices with `larkit remote-control pair`)",
      );
    }
    await emitText(
      ctx,
      JSON.stringify({
        base_url: server.baseUrl,
        client_url: server.clientUrl("<client_id>"),
        pair_url: server.pairUrl,
      }),
    );
    await untilAborted(ctx.p.signal);
    await server.close();
  },
});

const client = defineCommand({
  words: ["relay", "client"],
  description: "drive a remote stream by hand: JSON-RPC lines on stdin, server messages as NDJSON on stdout",
  flags: {
    relay: flag.requiredString("the dev relay's base URL, e.g. http://127.0.0.1:8787/", {
      placeholder: "base_url",
    }),
    "client-id": flag.defaulted("remote client id", "cli", { placeholder: "id" }),
    "stream-id": flag.defaulted("stream id", "s1", { placeholder: "id" }),
    "pairing-code": flag.string("pair first: redeem this code, then connect as the paired device", {
      placeholder: "code",
    }),
  },
  turn: refusedInTurns("opens a relay client from this machine"),
  async action(ctx, { flags }) {
    const opts = {
      relay: flags.relay,
      clientId: flags["client-id"],
      streamId: flags["stream-id"],
      pairingCode: flags["pairing-code"],
    };
    let base: URL;
    try {
      base = new URL(opts.relay);
    } catch {
      throw errors.validation(`--relay is not a URL: ${opts.relay}`, {
        hint: "use http://127.0.0.1:PORT/",
      });
    }
    let clientId = opts.clientId;
    let token: string | undefined;
    if (opts.pairingCode !== undefined) {
      const paired = await redeemPairingCode(ctx.p.fetch, new URL("/dev/pair", base).href, {
        pairing_code: opts.pairingCode,
        display_name: "larkit relay client",
      }).catch((e) => {
        throw errors.auth(`pairing refused: ${e instanceof Error ? e.message : e}`, {
          hint: "get a fresh code with `larkit remote-control pair`",
        });
      });
      clientId = paired.client_id;
      token = paired.client_token;
      await ctx.diag.info(`Paired as ${clientId}.`);
    }
    base.protocol = base.protocol === "https:" ? "wss:" : "ws:";
    base.pathname = "/dev/client";
    base.search = `?client_id=${encodeURIComponent(clientId)}`;
    const remote = await RemoteClient.connect(base.href, clientId, { token }).catch((e) => {
      // Refused is not unreachable: a device that was never paired (403) or sent a wrong token (401).
      if (e instanceof HandshakeRefused && (e.status === 401 || e.status === 403)) {
        throw errors.auth(`the dev relay refused client ${clientId}: ${e.message}`, {
          hint: opts.pairingCode === undefined
            ? "pair first: `larkit remote-control pair` on the server, then `larkit relay client --pairing-code <code>` (or start the dev relay with --allow-unpaired)"
            : "the pairing did not take: get a fresh code with `larkit remote-control pair`",
        });
      }
      throw errors.network(
        `cannot reach the dev relay at ${opts.relay}: ${e instanceof Error ? e.message : e}`,
      );
    });
    const stream = remote.stream(opts.streamId);
    const awaited = new Set<string>();
    let drained = () => {};
    stream.onMessage((m) => {
      void emitRendered(ctx, JSON.stringify(m) + "\n");
      const id = (m as { id?: unknown }).id;
      if (id !== undefined && ("result" in (m as object) || "error" in (m as object))) {
        awaited.delete(String(id));
      }
      if (awaited.size === 0) drained();
    });
    for (let line = await ctx.p.stdin.readLine(); line !== null; line = await ctx.p.stdin.readLine()) {
      if (line.trim() === "") continue;
      let message: unknown;
      try {
        message = JSON.parse(line);
      } catch {
        throw errors.validation(`stdin line is not JSON: ${line.slice(0, 80)}`);
      }
      const id = (message as { id?: unknown; method?: unknown }).id;
      if (id !== undefined && (message as { method?: unknown }).method !== undefined) {
        awaited.add(String(id));
      }
      stream.send(message);
    }
    if (awaited.size > 0) {
      await Promise.race([new Promise<void>((r) => drained = r), untilAborted(ctx.p.signal)]);
    }
    remote.close();
  },
});

export const relayCommands: CommandModule = {
  groups: [{ words: ["relay"], description: "the development relay for remote control" }],
  commands: [dev, client],
};
