// CPU per `tools/call` of serve's upstream leg to an MCP server behind
// OAuth, in this process: `mcpUpstream` with a client-credentials provider
// (run/auth's StoreOAuthProvider, tokens in memory) calling the `whoami`
// tool of tests/fixtures/serve/oauth_upstream.ts (its MCP server and
// authorization server run in a child process, so only the client side is
// measured here). Three ways, interleaved round by round, each on an
// upstream of its own (its own provider, token and connections):
//
//   direct         the direct upstream path over our HTTP/1.1 client
//   direct-fetch   the direct upstream path over `fetch` (what an https upstream takes)
//   sdk            the SDK's client (its transport, fetch, web streams, zod)
//
//   deno run -A bench/upstream_oauth_cpu.ts [--calls=3000] [--rounds=5] [--in-flight=8]
//
// CPU is this process's (user + system, `process.cpuUsage`); the server's
// CPU per call is read from /proc beside it. Ratios are inside one round.

import { cpuUsage } from "node:process";
import { MemoryTokenStore, StoreOAuthProvider } from "../run/auth/mod.ts";
import { mcpUpstream, type Upstream } from "../serve/mod.ts";
import { startHttpFixture, withDirect } from "../tests/serve/_direct_upstream.ts";
import { cpuMs, descendantsOf } from "./_cpu.ts";

const option = (name: string, fallback: string): string =>
  Deno.args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;

const CALLS = Number(option("calls", "3000"));
const ROUNDS = Number(option("rounds", "5"));
const IN_FLIGHT = Number(option("in-flight", "8"));

type Way = "direct" | "direct-fetch" | "sdk";
const WAYS: readonly Way[] = ["direct", "direct-fetch", "sdk"];

const fixture = await startHttpFixture("oauth_upstream.ts");
const mcpUrl = fixture.url;

function upstreamOf(): Upstream {
  const provider = new StoreOAuthProvider(mcpUrl, {
    store: new MemoryTokenStore(),
    settings: { grant: "client_credentials", clientId: "svc", clientSecret: "svc-secret" },
  });
  return mcpUpstream("secured", {
    transport: "http",
    url: mcpUrl,
    authProvider: provider,
    protocol: "legacy",
  });
}

const upstreams = new Map<Way, Upstream>(WAYS.map((way) => [way, upstreamOf()]));

/** Runs `body` with the direct path set as `way` takes it. */
const as = <T>(way: Way, body: () => Promise<T>): Promise<T> =>
  withDirect({ enabled: way !== "sdk", ownClient: way === "direct" }, body);

/** `calls` calls of `whoami`, `IN_FLIGHT` at a time. */
async function calls(upstream: Upstream, count: number): Promise<void> {
  let left = count;
  await Promise.all(Array.from({ length: IN_FLIGHT }, async () => {
    while (left-- > 0) {
      const result = await upstream.request("tools/call", { name: "whoami", arguments: {} }, {
        caller: "bench",
        clientCapabilities: {},
        returnInputRequired: true,
      });
      const text = (result.content as { text?: string }[] | undefined)?.[0]?.text;
      if (text !== "scope: read") throw new Error(`unexpected result: ${JSON.stringify(result)}`);
    }
  }));
}

const serverPids = (): number[] => [fixture.child.pid, ...descendantsOf(fixture.child.pid)];
const perCall: Record<Way, number[]> = { direct: [], "direct-fetch": [], sdk: [] };
const serverPerCall: Record<Way, number[]> = { direct: [], "direct-fetch": [], sdk: [] };
try {
  // Warm-up: the token fetched, connections open, code compiled.
  for (const way of WAYS) await as(way, () => calls(upstreams.get(way)!, 500));
  for (let round = 0; round < ROUNDS; round++) {
    for (const way of WAYS) {
      const server = cpuMs(serverPids());
      const before = cpuUsage();
      await as(way, () => calls(upstreams.get(way)!, CALLS));
      const used = cpuUsage(before);
      perCall[way].push((used.user + used.system) / 1000 / CALLS);
      serverPerCall[way].push((cpuMs(serverPids()) - server) / CALLS);
    }
    const [d, f, s] = WAYS.map((way) => perCall[way][round]);
    console.log(
      `round ${round + 1}: ms of CPU per call: direct ${d.toFixed(3)}, direct-fetch ${
        f.toFixed(3)
      }, sdk ${s.toFixed(3)}; direct/sdk ${(d / s).toFixed(2)}x, direct-fetch/sdk ${
        (f / s).toFixed(2)
      }x`,
    );
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1];
  console.log(
    `\n${CALLS} calls a round, ${IN_FLIGHT} in flight, ${ROUNDS} rounds (median; server's CPU beside)`,
  );
  for (const way of WAYS) {
    console.log(
      `${way.padEnd(13)} ${median(perCall[way]).toFixed(3)} ms per call (server ${
        median(serverPerCall[way]).toFixed(3)
      } ms)`,
    );
  }
  const ratios = (way: Way) =>
    perCall[way].map((value, i) => value / perCall.sdk[i]).sort((a, b) => a - b);
  for (const way of ["direct", "direct-fetch"] as const) {
    const r = ratios(way);
    console.log(`${way}/sdk per round: ${r[0].toFixed(2)}-${r.at(-1)!.toFixed(2)}x`);
  }
} finally {
  await Promise.all([...upstreams.values()].map((upstream) => upstream.close()));
  await fixture.close();
}
