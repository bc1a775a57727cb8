// Private: the SDK's EventStore of one session, on the shared StateStore. An
// event id names its session, and a session replays only its own events: an
// id of another session (or one dropped, expired or forgotten) is unknown.

import type { EventStore, JSONRPCMessage } from "@modelcontextprotocol/server";
import type { StateStore, StoredMessage } from "./state/store.ts";

/** The events of one session's streams, kept in the state store. */
export class SessionEvents implements EventStore {
  readonly #state: StateStore;
  readonly #sessionId: string;
  #muted = 0;

  constructor(state: StateStore, sessionId: string) {
    this.#state = state;
    this.#sessionId = sessionId;
  }

  /**
   * Runs `fn` with nothing stored: the answers of a session being rebuilt on
   * this instance (its replayed `initialize`) are not events of the client's.
   */
  async muted<T>(fn: () => Promise<T>): Promise<T> {
    this.#muted++;
    try {
      return await fn();
    } finally {
      this.#muted--;
    }
  }

  async storeEvent(streamId: string, message: JSONRPCMessage, json?: string): Promise<string> {
    if (this.#muted > 0) return `${this.#sessionId}~${streamId}~unsaved-${crypto.randomUUID()}`;
    return await this.#state.appendEvent(
      this.#sessionId,
      streamId,
      message as unknown as StoredMessage,
      json,
    );
  }

  async getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    const found = await this.#state.eventsAfter(eventId);
    return found?.sessionId === this.#sessionId ? found.streamId : undefined;
  }

  async replayEventsAfter(
    lastEventId: string,
    { send }: { send: (eventId: string, message: JSONRPCMessage) => Promise<void> },
  ): Promise<string> {
    const found = await this.#state.eventsAfter(lastEventId);
    if (found === undefined || found.sessionId !== this.#sessionId) {
      throw new Error(
        `event ${JSON.stringify(lastEventId)} is unknown (dropped, expired or of another session)`,
      );
    }
    for (const event of found.events) {
      await send(event.id, event.message as unknown as JSONRPCMessage);
    }
    return found.streamId;
  }
}
