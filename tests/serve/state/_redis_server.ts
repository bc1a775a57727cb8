// A real redis-server for tests, on a free loopback port, with nothing
// persisted (--save '' --appendonly no). redis-server must be installed
// (Debian: apt-get install -y redis-server; .ci/run installs it): the Redis
// state store is tested against Redis itself, never skipped.

/** A running redis-server. */
export interface RedisServer {
  /** `redis://127.0.0.1:PORT`. */
  readonly url: string;
  /** Its port. */
  readonly port: number;
  /** Kills it (SIGKILL, as a crash) and waits until the port is closed. */
  kill(): Promise<void>;
  /** Starts it again on the same port (empty). */
  restart(): Promise<void>;
  /** Stops it for good. */
  stop(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

async function answers(port: number): Promise<boolean> {
  try {
    const conn = await Deno.connect({ hostname: "127.0.0.1", port });
    conn.close();
    return true;
  } catch {
    return false;
  }
}

function spawn(port: number): Deno.ChildProcess {
  try {
    return new Deno.Command("redis-server", {
      args: ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).spawn();
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      throw new Error(
        "redis-server is not installed, and the Redis state store tests need a real one: " +
          "install it (Debian/Ubuntu: apt-get install -y redis-server; macOS: brew install redis)",
        { cause: error },
      );
    }
    throw error;
  }
}

/** Starts redis-server on a free loopback port and waits until it accepts connections. */
export async function startRedis(): Promise<RedisServer> {
  const port = freePort();
  let child: Deno.ChildProcess | undefined;
  const start = async () => {
    child = spawn(port);
    const deadline = Date.now() + 10_000;
    while (!(await answers(port))) {
      if (Date.now() > deadline) {
        throw new Error(`redis-server did not accept connections on 127.0.0.1:${port} in 10 s`);
      }
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  };
  const kill = async () => {
    if (child === undefined) return;
    const dying = child;
    child = undefined;
    try {
      dying.kill("SIGKILL");
    } catch {
      // already gone
    }
    await dying.status;
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    kill,
    restart: start,
    stop: kill,
    [Symbol.asyncDispose]: kill,
  };
}
