/**
 * Reading a failed child's stderr for the causes a minimal child environment
 * brings (a variable it did not get, a CA certificate it cannot find) and
 * saying how to pass what is missing. Command providers and stdio MCP servers
 * add these hints to the error of a child that failed.
 *
 * @module
 */

/** Variables a child reads for extra CA certificates and gets by default (when set). */
const CA_ENV = ["NODE_EXTRA_CA_CERTS", "SSL_CERT_FILE", "SSL_CERT_DIR", "DENO_CERT"];

/** CA variables of other tools, not passed by default: named when set here. */
const OTHER_CA_ENV = [
  "REQUESTS_CA_BUNDLE",
  "CURL_CA_BUNDLE",
  "GIT_SSL_CAINFO",
  "PIP_CERT",
  "AWS_CA_BUNDLE",
  "CARGO_HTTP_CAINFO",
];

/** What certificate failures look like, most telling first. */
const CERTIFICATE: readonly RegExp[] = [
  /UnknownIssuer|UNABLE_TO_GET_ISSUER_CERT(?:_LOCALLY)?|unable to get local issuer certificate/i,
  /SELF_SIGNED_CERT_IN_CHAIN|DEPTH_ZERO_SELF_SIGNED_CERT|self[- ]signed certificate/i,
  /UNABLE_TO_VERIFY_LEAF_SIGNATURE|certificate signed by unknown authority/i,
  /CERTIFICATE_VERIFY_FAILED|certificate verify failed|invalid peer certificate/i,
];

const NAME = "([A-Za-z_][A-Za-z0-9_]*)";
/** Messages that say a variable is missing, with the variable's name in group 1. */
const MISSING_VARIABLE: readonly RegExp[] = [
  new RegExp(`\\b${NAME}: (?:unbound variable|parameter not set|parameter null or not set)`),
  new RegExp(`KeyError: ['"]${NAME}['"]`),
  new RegExp(
    `(?:environment variable|env(?:ironment)? var(?:iable)?)\\s+[\`'"$]?${NAME}[\`'"]?\\s+(?:is\\s+)?(?:not set|unset|missing|not defined|undefined|required|empty)`,
    "i",
  ),
  new RegExp(
    `(?:missing|required|undefined|unset|set the|please set)\\s+(?:the\\s+)?(?:environment variable|env(?:ironment)? var(?:iable)?)s?:?\\s+[\`'"$]?${NAME}`,
    "i",
  ),
  /\b([A-Z][A-Z0-9_]{2,})\s+(?:is\s+)?(?:not set|unset|must be set|is required|is missing)/,
];
const UPPER_NAME = /\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b|\b[A-Z]{3,}[0-9]*\b/g;

/** Who the failed child is, for the wording: a command provider's program or an MCP server. */
export type ChildKind = "command" | "server";

/** Options of {@linkcode startHints}. */
export interface StartHintsOptions {
  /** Who failed (default `"command"`): "the command" and "the provider's inheritEnv", or "the server". */
  who?: ChildKind;
  /** Reads this process's environment (default: without prompting). */
  here?: (name: string) => string | undefined;
}

/** What the stderr of a failed child suggests. */
export interface StartHints {
  /** Sentences to add to the error message. */
  hints: string[];
  /** Variables the child seems to miss. */
  missingEnv: string[];
  /** Whether a certificate could not be verified. */
  certificate: boolean;
}

/** A variable's value in this process, without prompting for permission. */
function readHere(name: string): string | undefined {
  try {
    const state = Deno.permissions.querySync({ name: "env", variable: name }).state;
    return state === "granted" ? Deno.env.get(name) : undefined;
  } catch {
    return undefined;
  }
}

function list(names: readonly string[]): string {
  return names.length === 1
    ? names[0]
    : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

/**
 * Reads a failed child's stderr (a command provider's program or a stdio MCP
 * server). `given` is the environment the child got.
 */
export function startHints(
  stderr: string,
  given: Readonly<Record<string, string>>,
  options: StartHintsOptions = {},
): StartHints {
  const here = options.here ?? readHere;
  const who = options.who ?? "command";
  const owner = who === "server" ? "the server's" : "the provider's";
  const hints: string[] = [];
  const got = (name: string): boolean => Object.hasOwn(given, name);
  const notPassed = (name: string): boolean => !got(name) && here(name) !== undefined;

  const missing = new Set<string>();
  for (const pattern of MISSING_VARIABLE) {
    for (const match of stderr.matchAll(new RegExp(pattern, pattern.flags + "g"))) {
      if (!got(match[1])) missing.add(match[1]);
    }
  }
  const mentioned = new Set<string>();
  for (const match of stderr.matchAll(UPPER_NAME)) {
    if (!missing.has(match[0]) && notPassed(match[0])) mentioned.add(match[0]);
  }
  const held = [...missing].filter(notPassed).concat([...mentioned]).slice(0, 5);
  const unset = [...missing].filter((name) => !notPassed(name)).slice(0, 5);
  if (held.length > 0) {
    hints.push(
      `${list(held)} ${held.length === 1 ? "is" : "are"} set here but not passed to the ` +
        `${who} (children get a minimal environment): add ${
          held.map((n) => JSON.stringify(n)).join(", ")
        } to ${owner} inheritEnv, or set ${held.length === 1 ? "it" : "them"} in env`,
    );
  }
  if (unset.length > 0) {
    hints.push(
      `the ${who} needs ${list(unset)}, which ${unset.length === 1 ? "is" : "are"} not set: ` +
        `set ${unset.length === 1 ? "it" : "them"} in ${owner} env (or export ${
          unset.length === 1 ? "it" : "them"
        } and add the name to inheritEnv)`,
    );
  }

  const cert = CERTIFICATE.map((pattern) => pattern.exec(stderr)).find((m) => m !== null) ?? null;
  const others = cert === null ? [] : OTHER_CA_ENV.filter(notPassed);
  if (cert !== null) {
    const passed = CA_ENV.filter(got);
    let hint = `a TLS certificate could not be verified (${cert[0]}): `;
    const runtimes = "Deno reads DENO_CERT or DENO_TLS_CA_STORE, Node NODE_EXTRA_CA_CERTS, " +
      "OpenSSL-based programs SSL_CERT_FILE or SSL_CERT_DIR";
    hint += passed.length > 0
      ? `the ${who} got ${list(passed)}; check that the one its runtime reads names the CA ` +
        `that signed the server's certificate (${runtimes})`
      : `the ${who} got no CA setting; set the one its runtime reads to the CA file (${runtimes}; ` +
        `all passed on by default when set here), in ${owner} env or before starting`;
    if (others.length > 0) {
      hint += `; ${list(others)} ${
        others.length === 1 ? "is" : "are"
      } set here but not passed: add ${others.length === 1 ? "it" : "them"} to inheritEnv`;
    }
    hints.push(hint);
  }
  const missingEnv = [...new Set([...held, ...unset, ...others])];
  return { hints, missingEnv, certificate: cert !== null };
}
