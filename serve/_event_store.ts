// Private: an in-memory event store for resumable session streams (Last-Event-ID),
// bounded per stream.

import type { EventStore, JSONRPCMessage } from "@modelcontextprotocol/server";

/** Keeps the last `perStream` events of each stream. */
export class MemoryEventStore implements EventStore {
  readonly #streams = new Map<string, Array<{ id: string; message: JSONRPCMessage }>>();
  readonly #perStream: number;
  #next = 0;

  constructor(perStream = 1000) {
    this.#perStream = perStream;
  }

  storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    const id = `${streamId}_${(this.#next++).toString(36).padStart(8, "0")}`;
    const events = this.#streams.get(streamId) ?? [];
    events.push({ id, message });
    if (events.length > this.#perStream) events.shift();
    this.#streams.set(streamId, events);
    return Promise.resolve(id);
  }

  getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    const at = eventId.lastIndexOf("_");
    return Promise.resolve(at < 0 ? undefined : eventId.slice(0, at));
  }

  async replayEventsAfter(
    lastEventId: string,
    { send }: { send: (eventId: string, message: JSONRPCMessage) => Promise<void> },
  ): Promise<string> {
    const at = lastEventId.lastIndexOf("_");
    const streamId = at < 0 ? "" : lastEventId.slice(0, at);
    const events = this.#streams.get(streamId) ?? [];
    let after = false;
    for (const event of events) {
      if (after) await send(event.id, event.message);
      if (event.id === lastEventId) after = true;
    }
    return streamId;
  }

  /** Forgets the streams of a closed session. */
  forget(prefix: string): void {
    for (const key of this.#streams.keys()) if (key.startsWith(prefix)) this.#streams.delete(key);
  }
}
