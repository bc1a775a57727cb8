// A native forwarder for the gateway benches' floor: nginx as a reverse proxy
// in front of the HTTP upstream, one worker, keep-alive connections to the
// upstream (`proxy_http_version 1.1`, `keepalive`), an SSE answer passed on
// as it comes (`proxy_buffering off`), no access log. Started on 127.0.0.1
// with its own prefix and configuration in a temp folder, stopped (and the
// folder removed) by `stop()`. Bench-only; Linux.

/** A running nginx: its URL, the master's PID and its worker's (for their CPU), and how to stop it. */
export interface Nginx {
  /** The MCP endpoint through nginx (`http://127.0.0.1:<port>/mcp`). */
  url: string;
  /** The master process (nginx's workers are its children). */
  pid: number;
  /** Stops nginx (SIGTERM to the master, which stops its worker) and removes its folder. */
  stop(): Promise<void>;
}

/** The nginx binary on PATH or in /usr/sbin, or undefined when there is none. */
export function findNginx(): string | undefined {
  const path = (Deno.env.get("PATH") ?? "").split(":");
  for (const dir of [...path, "/usr/sbin", "/usr/local/sbin", "/usr/local/nginx/sbin"]) {
    if (dir === "") continue;
    try {
      if (Deno.statSync(`${dir}/nginx`).isFile) return `${dir}/nginx`;
    } catch { /* not here */ }
  }
  return undefined;
}

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

/**
 * Starts nginx in front of `upstream` (an `http://127.0.0.1:<port>/...` URL)
 * and waits until it accepts connections. The Host header sent upstream is
 * the upstream's own (the fixture refuses any other: DNS rebinding check).
 */
export async function startNginx(binary: string, upstream: string): Promise<Nginx> {
  const up = new URL(upstream);
  const dir = Deno.makeTempDirSync({ prefix: "gateway_nginx_" });
  // The worker drops root to "nobody": its folders must be open to it.
  Deno.chmodSync(dir, 0o777);
  const port = freePort();
  const conf = `${dir}/nginx.conf`;
  Deno.writeTextFileSync(
    conf,
    `worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  upstream mcp_upstream {
    server ${up.host};
    keepalive 64;
  }
  server {
    listen 127.0.0.1:${port};
    keepalive_requests 1000000;
    location / {
      proxy_pass http://mcp_upstream;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host ${up.host};
      proxy_buffering off;
      proxy_cache off;
    }
  }
}
`,
  );
  const child = new Deno.Command(binary, {
    args: ["-p", `${dir}/`, "-c", conf, "-e", `${dir}/error.log`],
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const stderr = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  let errors = "";
  void (async () => {
    for (;;) {
      const { value, done } = await stderr.read();
      if (done) return;
      errors += value;
    }
  })().catch(() => {});
  const stop = async () => {
    try {
      child.kill("SIGTERM");
    } catch { /* gone */ }
    await child.status;
    Deno.removeSync(dir, { recursive: true });
  };
  const until = Date.now() + 10_000;
  for (;;) {
    try {
      (await Deno.connect({ hostname: "127.0.0.1", port })).close();
      break;
    } catch (cause) {
      if (Date.now() > until) {
        await stop();
        throw new Error(`nginx did not listen on 127.0.0.1:${port} within 10 s: ${errors}`, {
          cause,
        });
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  return { url: `http://127.0.0.1:${port}${up.pathname}`, pid: child.pid, stop };
}
