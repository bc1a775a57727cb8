/**
 * Module tools: a local module's export run in a Worker whose Deno
 * permissions are exactly what the manifest grants the tool (nothing by
 * default). A tool that reaches further fails with `permission_denied`
 * naming the permission. Needs `--unstable-worker-options`.
 *
 * @module
 */

import { ExecutionError, type LocalHandler, PermissionDeniedError } from "../run/mod.ts";
import type { ManifestGrant, ManifestPermissions } from "./manifest.ts";
import { resolvePath } from "./permissions.ts";

/** Options of {@linkcode moduleHandler}. */
export interface ModuleHandlerOptions {
  /** The export to call (default `default`). */
  export?: string;
  /** What the Worker may do (nothing by default). */
  permissions?: ManifestPermissions;
  /** Directory that relative grant paths resolve against (default `.`). */
  dir?: string;
}

function grant(value: ManifestGrant | undefined, dir: string, paths: boolean): boolean | string[] {
  if (value === undefined || value === false) return false;
  if (value === true) return true;
  return paths ? value.map((p) => resolvePath(dir, p)) : [...value];
}

function wrapperSource(moduleUrl: string, exportName: string): string {
  return `import * as mod from ${JSON.stringify(moduleUrl)};
const fn = mod[${JSON.stringify(exportName)}];
self.onmessage = async (event) => {
  try {
    if (typeof fn !== "function") throw new TypeError("the module has no function export " + ${
    JSON.stringify(JSON.stringify(exportName))
  });
    const result = await fn(event.data);
    self.postMessage({ ok: true, result: result === undefined ? null : result });
  } catch (error) {
    self.postMessage({ ok: false, name: error?.name ?? "Error", message: String(error?.message ?? error) });
  }
};`;
}

/**
 * A local handler that runs `export` of a module in a sandboxed Worker, one
 * Worker per call, terminated when the call ends or is cancelled.
 *
 * @example
 * ```ts ignore
 * import { moduleHandler } from "@toolfoundation/core/cli";
 *
 * const handler = moduleHandler(new URL("./shout.ts", import.meta.url), {
 *   permissions: { read: ["./data"] },
 * });
 * ```
 *
 * @param module The module's URL.
 * @param options Export name, grants and the directory grants resolve against.
 * @returns The handler.
 */
export function moduleHandler(module: URL, options: ModuleHandlerOptions = {}): LocalHandler {
  const dir = options.dir ?? ".";
  const p = options.permissions ?? {};
  const permissions = {
    read: grant(p.read, dir, true),
    write: grant(p.write, dir, true),
    net: grant(p.net, dir, false),
    run: grant(p.run, dir, false),
    env: grant(p.env, dir, false),
    sys: false,
    ffi: false,
    import: false,
  };
  const source = wrapperSource(module.href, options.export ?? "default");
  return (args, ctx) =>
    new Promise((resolve, reject) => {
      const url = URL.createObjectURL(new Blob([source], { type: "application/javascript" }));
      let worker: Worker;
      try {
        worker = new Worker(url, { type: "module", deno: { permissions } } as WorkerOptions);
      } catch (cause) {
        URL.revokeObjectURL(url);
        reject(
          new PermissionDeniedError(
            "module tools run in sandboxed Workers; add --unstable-worker-options",
            { toolId: ctx.toolId, cause },
          ),
        );
        return;
      }
      const finish = () => {
        worker.terminate();
        URL.revokeObjectURL(url);
        ctx.signal.removeEventListener("abort", onAbort);
      };
      const onAbort = () => {
        finish();
        reject(ctx.signal.reason);
      };
      ctx.signal.addEventListener("abort", onAbort, { once: true });
      worker.onmessage = (event: MessageEvent) => {
        finish();
        const data = event.data as {
          ok: boolean;
          result?: unknown;
          name?: string;
          message?: string;
        };
        if (data.ok) resolve(data.result);
        else if (data.name === "NotCapable" || data.name === "PermissionDenied") {
          reject(new PermissionDeniedError(data.message ?? "", { toolId: ctx.toolId }));
        } else {
          reject(new ExecutionError(`${data.name}: ${data.message}`, { toolId: ctx.toolId }));
        }
      };
      worker.onerror = (event: ErrorEvent) => {
        event.preventDefault();
        finish();
        const message = event.message ?? "the module failed to load";
        reject(
          /Requires \w+ access|NotCapable/.test(message)
            ? new PermissionDeniedError(message, { toolId: ctx.toolId })
            : new ExecutionError(message, { toolId: ctx.toolId }),
        );
      };
      worker.postMessage(args);
    });
}
