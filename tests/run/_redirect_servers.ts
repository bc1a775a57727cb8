// Test helper: two HTTP servers on 127.0.0.1 with different ports, so two
// origins. The first ("home") answers the redirects a test asks for; both
// record every request they get (method, URL, headers, body).

/** One request a server got. */
export interface Seen {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** The two servers. */
export interface TwoOrigins {
  /** `http://127.0.0.1:<port>` of the server that redirects. */
  home: string;
  /** `http://127.0.0.1:<port>` of the other origin. */
  away: string;
  /** What home got. */
  homeSeen: Seen[];
  /** What away got. */
  awaySeen: Seen[];
  /** Stops both. */
  close(): Promise<void>;
}

/**
 * What a server answers to a request that is not a redirect: by default a
 * JSON echo of what it got.
 */
export type Answer = (request: Request, seen: Seen) => Response | Promise<Response>;

const echo: Answer = (_request, seen) => Response.json(seen);

/**
 * Starts both servers. Home answers `/redirect/<status>/<where>/<path>` with
 * that status and a Location of `<where>` (`home`, `away`, or `ftp`) + `/<path>`,
 * without the query; `/loop` redirects to itself (307). Any other path is
 * `answer` on either server.
 */
export function twoOrigins(
  answers: { home?: Answer; away?: Answer } = {},
): Promise<TwoOrigins> {
  const homeSeen: Seen[] = [];
  const awaySeen: Seen[] = [];
  const bases = { home: "", away: "", ftp: "ftp://127.0.0.1" };
  const record = async (request: Request, into: Seen[]): Promise<Seen> => {
    const seen = {
      method: request.method,
      url: request.url,
      headers: Object.fromEntries(request.headers),
      body: await request.clone().text(),
    };
    into.push(seen);
    return seen;
  };
  const home = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    async (request) => {
      const seen = await record(request, homeSeen);
      const url = new URL(request.url);
      const match = url.pathname.match(/^\/redirect\/(\d+)\/(home|away|ftp)(\/.*)$/);
      if (match !== null) {
        const target = bases[match[2] as keyof typeof bases] + match[3];
        return new Response(null, { status: Number(match[1]), headers: { location: target } });
      }
      if (url.pathname === "/loop") {
        return new Response(null, { status: 307, headers: { location: "/loop" } });
      }
      return await (answers.home ?? echo)(request, seen);
    },
  );
  const away = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    async (request) => await (answers.away ?? echo)(request, await record(request, awaySeen)),
  );
  bases.home = `http://127.0.0.1:${home.addr.port}`;
  bases.away = `http://127.0.0.1:${away.addr.port}`;
  return Promise.resolve({
    home: bases.home,
    away: bases.away,
    homeSeen,
    awaySeen,
    close: async () => {
      await Promise.all([home.shutdown(), away.shutdown()]);
    },
  });
}
