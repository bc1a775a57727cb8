// Test helper: headless Chromium driven over the DevTools protocol (Deno's
// own WebSocket; no driver library): open a page, evaluate script in it,
// press keys, take a screenshot. `chromium()` says why when there is no
// browser, so that the browser tests skip with that reason.

/** The Chromium binary, or why there is none. */
export async function chromium(): Promise<{ path: string } | { missing: string }> {
  for (const name of ["chromium", "chromium-browser", "google-chrome"]) {
    try {
      const out = await new Deno.Command(name, {
        args: ["--version"],
        stdout: "null",
        stderr: "null",
      })
        .output();
      if (out.success) return { path: name };
    } catch { /* not on PATH */ }
  }
  return {
    missing: "no chromium on PATH: install the Debian package (apt-get install -y chromium); " +
      ".ci/run does so when it is missing",
  };
}

type Pending = { resolve: (v: unknown) => void; reject: (e: Error) => void };

/** A headless browser with one page. */
export class Page {
  #ws: WebSocket;
  #child: Deno.ChildProcess;
  #profile: string;
  #session = "";
  #next = 0;
  #pending = new Map<number, Pending>();

  private constructor(ws: WebSocket, child: Deno.ChildProcess, profile: string) {
    this.#ws = ws;
    this.#child = child;
    this.#profile = profile;
    ws.onmessage = (event) => {
      const message = JSON.parse(String(event.data));
      const pending = this.#pending.get(message.id);
      if (pending === undefined) return;
      this.#pending.delete(message.id);
      if (message.error) pending.reject(new Error(`CDP: ${JSON.stringify(message.error)}`));
      else pending.resolve(message.result);
    };
  }

  /** Starts Chromium (1280×900) and opens a blank page. */
  static async launch(binary: string): Promise<Page> {
    const profile = await Deno.makeTempDir({ prefix: "tf-chromium-" });
    const child = new Deno.Command(binary, {
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--no-first-run",
        "--disable-extensions",
        "--remote-debugging-port=0",
        `--user-data-dir=${profile}`,
        "about:blank",
      ],
      stdin: "null",
      stdout: "null",
      stderr: "piped",
    }).spawn();
    const reader = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
    let text = "";
    const deadline = Date.now() + 30_000;
    let url: string | undefined;
    while (url === undefined) {
      if (Date.now() > deadline) throw new Error(`chromium did not start:\n${text}`);
      const { done, value } = await reader.read();
      if (done) throw new Error(`chromium exited:\n${text}`);
      text += value;
      url = /DevTools listening on (ws:\/\/\S+)/.exec(text)?.[1];
    }
    // Keep draining stderr so that the browser never blocks on it.
    void (async () => {
      while (!(await reader.read().catch(() => ({ done: true }))).done) { /* drain */ }
    })();
    const ws = new WebSocket(url);
    await new Promise((resolve, reject) => {
      ws.onopen = resolve;
      ws.onerror = () => reject(new Error(`cannot connect to ${url}`));
    });
    const page = new Page(ws, child, profile);
    const { targetId } = await page.send("Target.createTarget", { url: "about:blank" }) as {
      targetId: string;
    };
    const { sessionId } = await page.send("Target.attachToTarget", { targetId, flatten: true }) as {
      sessionId: string;
    };
    page.#session = sessionId;
    await page.send("Emulation.setDeviceMetricsOverride", {
      width: 1280,
      height: 900,
      deviceScaleFactor: 1,
      mobile: false,
    });
    return page;
  }

  /** Sends one DevTools command (to the page once attached). */
  send(method: string, params: Record<string, unknown> = {}): Promise<unknown> {
    const id = ++this.#next;
    const message = { id, method, params, ...(this.#session ? { sessionId: this.#session } : {}) };
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#ws.send(JSON.stringify(message));
    });
  }

  /** Opens a URL and waits until `expression` is true (default: the page's script ran). */
  async open(
    url: string,
    ready = "document.documentElement.dataset.ready === 'true'",
  ): Promise<void> {
    await this.send("Page.navigate", { url });
    await this.waitFor(ready);
  }

  /** Waits (up to 20 s) until `expression` is true in the page. */
  async waitFor(expression: string): Promise<void> {
    const deadline = Date.now() + 20_000;
    while (!(await this.evaluate<boolean>(`!!(${expression})`).catch(() => false))) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${expression}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** The value of an expression in the page (promises awaited). */
  async evaluate<T>(expression: string): Promise<T> {
    const result = await this.send("Runtime.evaluate", {
      expression,
      returnByValue: true,
      awaitPromise: true,
    }) as {
      result: { value: T };
      exceptionDetails?: { text: string; exception?: { description?: string } };
    };
    if (result.exceptionDetails) {
      throw new Error(
        `in the page: ${
          result.exceptionDetails.exception?.description ?? result.exceptionDetails.text
        }`,
      );
    }
    return result.result.value;
  }

  /** Presses a key as a user would (Tab, Enter, Escape), with Shift when asked. */
  async press(key: "Tab" | "Enter" | "Escape", shift = false): Promise<void> {
    const codes = { Tab: 9, Enter: 13, Escape: 27 };
    const base = {
      key,
      code: key,
      windowsVirtualKeyCode: codes[key],
      modifiers: shift ? 8 : 0,
    };
    await this.send("Input.dispatchKeyEvent", {
      type: "keyDown",
      ...base,
      ...(key === "Enter" ? { text: "\r" } : {}),
    });
    await this.send("Input.dispatchKeyEvent", { type: "keyUp", ...base });
  }

  /** A PNG screenshot of the viewport. */
  async screenshot(): Promise<Uint8Array> {
    const { data } = await this.send("Page.captureScreenshot", { format: "png" }) as {
      data: string;
    };
    return Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
  }

  /** Closes the browser and removes its profile. */
  async close(): Promise<void> {
    try {
      this.#ws.close();
    } catch { /* closed */ }
    try {
      this.#child.kill("SIGKILL");
    } catch { /* gone */ }
    await this.#child.status;
    await Deno.remove(this.#profile, { recursive: true }).catch(() => {});
  }
}

/** Width, height and the variance of the grey levels of a PNG (8-bit RGB or RGBA). */
export async function pngStats(
  png: Uint8Array,
): Promise<{ width: number; height: number; variance: number }> {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  let at = 8;
  let width = 0, height = 0, channels = 0;
  const idat: Uint8Array[] = [];
  while (at < png.length) {
    const length = view.getUint32(at);
    const type = new TextDecoder().decode(png.subarray(at + 4, at + 8));
    const body = png.subarray(at + 8, at + 8 + length);
    if (type === "IHDR") {
      width = view.getUint32(at + 8);
      height = view.getUint32(at + 12);
      if (body[8] !== 8) throw new Error(`bit depth ${body[8]} not handled`);
      channels = ({ 2: 3, 6: 4 } as Record<number, number>)[body[9]] ?? 0;
      if (channels === 0) throw new Error(`colour type ${body[9]} not handled`);
    } else if (type === "IDAT") idat.push(body);
    at += 12 + length;
  }
  const raw = new Uint8Array(
    await new Response(
      new Blob(idat as BlobPart[]).stream().pipeThrough(new DecompressionStream("deflate")),
    )
      .arrayBuffer(),
  );
  const stride = width * channels;
  const prev = new Uint8Array(stride);
  const line = new Uint8Array(stride);
  let sum = 0, squares = 0;
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const row = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let x = 0; x < stride; x++) {
      const a = x >= channels ? line[x - channels] : 0;
      const b = prev[x];
      const c = x >= channels ? prev[x - channels] : 0;
      const p = a + b - c;
      const pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c);
      const predictor =
        [0, a, b, (a + b) >> 1, pa <= pb && pa <= pc ? a : pb <= pc ? b : c][filter];
      line[x] = (row[x] + predictor) & 0xff;
    }
    for (let x = 0; x < stride; x += channels) {
      const grey = (line[x] + line[x + 1] + line[x + 2]) / 3;
      sum += grey;
      squares += grey * grey;
    }
    prev.set(line);
  }
  const n = width * height;
  return { width, height, variance: squares / n - (sum / n) ** 2 };
}

/** The WCAG contrast ratio of two `rgb(r, g, b)` colours. */
export function contrast(a: string, b: string): number {
  const luminance = (css: string) => {
    const [r, g, bl] = (css.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map(Number).map((v) => {
      const s = v / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}
