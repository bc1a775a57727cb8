// The SDK classifier's verdicts on 2026-07-28 envelopes are a memo held by
// whoever asks (a handler), not by the process: each holds its own, bounded.

import assert from "node:assert/strict";
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  PROTOCOL_VERSION_META_KEY,
} from "@modelcontextprotocol/server";
import { EnvelopeVerdicts, MAX_VERDICTS, modernCallOf } from "../../serve/_fast_call_modern.ts";

const REVISION = "2026-07-28";

function call(clientName: string, capabilities: unknown = {}) {
  const body = {
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: {
      name: "plain",
      arguments: {},
      _meta: {
        [PROTOCOL_VERSION_META_KEY]: REVISION,
        [CLIENT_INFO_META_KEY]: { name: clientName, version: "1" },
        [CLIENT_CAPABILITIES_META_KEY]: capabilities,
      },
    },
  };
  const request = new Request("http://localhost/mcp", {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": REVISION,
      "mcp-method": "tools/call",
      "mcp-name": "plain",
    },
  });
  return { request, body };
}

Deno.test("a 2026-07-28 call's verdict is kept in the memo it is given, not in another", () => {
  const mine = new EnvelopeVerdicts();
  const other = new EnvelopeVerdicts();
  const { request, body } = call("a");
  assert.notEqual(modernCallOf(request, body, () => true, mine), undefined);
  assert.equal(mine.size, 1);
  assert.equal(other.size, 0);
  // The same envelope again: the verdict kept, nothing added.
  assert.notEqual(modernCallOf(request, body, () => true, mine), undefined);
  assert.equal(mine.size, 1);
  // A refused envelope (capabilities of the wrong type) is kept as refused.
  const bad = call("a", { elicitation: "yes" });
  assert.equal(modernCallOf(bad.request, bad.body, () => true, mine), undefined);
  assert.equal(mine.size, 2);
  assert.equal(modernCallOf(bad.request, bad.body, () => true, mine), undefined);
});

Deno.test("the verdict memo judges each envelope once and never holds more than its cap", () => {
  const verdicts = new EnvelopeVerdicts();
  let judged = 0;
  const judge = () => (judged++, true);
  for (let i = 0; i < MAX_VERDICTS * 2 + 10; i++) {
    assert.equal(verdicts.get(`k${i}`, judge), true);
    assert.ok(verdicts.size <= MAX_VERDICTS, `${verdicts.size} verdicts kept`);
  }
  assert.equal(judged, MAX_VERDICTS * 2 + 10);
  verdicts.get("again", judge);
  verdicts.get("again", () => assert.fail("judged twice"));
});
