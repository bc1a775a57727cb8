// Test helper: a private CA and a certificate it signs for 127.0.0.1 (needs openssl).

/** PEM texts and the CA's file path; `undefined` when openssl is not available. */
export interface TestCerts {
  caFile: string;
  cert: string;
  key: string;
}

async function openssl(args: string[]): Promise<boolean> {
  const out = await new Deno.Command("openssl", { args, stdout: "null", stderr: "null" })
    .output().catch(() => undefined);
  return out?.success === true;
}

/** Makes a CA and a server certificate for IP 127.0.0.1 in `dir`. */
export async function makeTestCerts(dir: string): Promise<TestCerts | undefined> {
  const ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];
  await Deno.writeTextFile(`${dir}/leaf.ext`, "subjectAltName=IP:127.0.0.1\n");
  const ok = await openssl([
    "req",
    "-x509",
    ...ec,
    "-keyout",
    `${dir}/ca.key`,
    "-out",
    `${dir}/ca.pem`,
    "-days",
    "1",
    "-subj",
    "/CN=toolfoundation test CA",
  ]) &&
    await openssl([
      "req",
      ...ec,
      "-keyout",
      `${dir}/leaf.key`,
      "-out",
      `${dir}/leaf.csr`,
      "-subj",
      "/CN=127.0.0.1",
    ]) &&
    await openssl([
      "x509",
      "-req",
      "-in",
      `${dir}/leaf.csr`,
      "-CA",
      `${dir}/ca.pem`,
      "-CAkey",
      `${dir}/ca.key`,
      "-CAcreateserial",
      "-out",
      `${dir}/leaf.pem`,
      "-days",
      "1",
      "-extfile",
      `${dir}/leaf.ext`,
    ]);
  if (!ok) return undefined;
  return {
    caFile: `${dir}/ca.pem`,
    cert: await Deno.readTextFile(`${dir}/leaf.pem`),
    key: await Deno.readTextFile(`${dir}/leaf.key`),
  };
}
