// Private: the retrieval URI of the schema being compiled, in a module of its
// own so that the fast path (which must not load Hyperjump) can name it.

/** The retrieval URI of the schema being compiled (never fetched). */
export const ROOT_URI = "https://toolfoundation.invalid/schema.json";
