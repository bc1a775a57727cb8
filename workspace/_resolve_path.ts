// Private: manifest-relative paths and URL hosts, resolved without touching the file system.

/** Resolves a manifest-relative path without touching the file system. */
export function resolvePath(dir: string, path: string): string {
  if (path.startsWith("/") || /^[A-Za-z]:[\\/]/.test(path)) return path;
  const joined = dir === "." ? path : `${dir}/${path}`;
  const parts: string[] = [];
  for (const part of joined.split("/")) {
    if (part === "." || (part === "" && parts.length > 0)) continue;
    if (part === ".." && parts.length > 0 && parts[parts.length - 1] !== "..") parts.pop();
    else parts.push(part);
  }
  return parts.join("/") || ".";
}

/** `host:port` of an HTTP URL (the port made explicit). */
export function hostOf(url: string): string {
  const u = new URL(url);
  return `${u.hostname}:${u.port || (u.protocol === "https:" ? "443" : "80")}`;
}
