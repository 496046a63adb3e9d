// The explorer's API as the page asks it (POST /api/position, docs/serve.md): a position's answer, streamed
// while its search runs, and kept in the page's cache once whole, so that undo, redo and the history ask the
// server once per position.

/** An error answer of the API. */
class ApiFailure extends Error {
  constructor(error) {
    super(error.message);
    this.kind = error.kind;
    this.status = error.status;
  }
}

export function requestKey(game, position, moves) {
  return JSON.stringify([game, position, moves]);
}

/** How long the page waits between two questions about a search under way (the server waits 0.4 s itself). */
const POLL_PAUSE_MS = 100;

/**
 * The answer for a position, from `answers` (the page's cache, by `requestKey`) or the server. The server
 * answers a request that streams at once with the board and the values found so far (`complete: false`): each
 * such answer goes to `onPartial`, and the page asks again, until the whole answer comes (kept in `answers`),
 * or `onPartial` returns false (the page moved on: `null` then).
 */
export async function ask(answers, game, position, moves, onPartial = () => true) {
  const key = requestKey(game, position, moves);
  for (;;) {
    if (answers.has(key)) {
      return answers.get(key);
    }
    const response = await fetch("/api/position", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ game, position, moves, stream: true }),
    });
    const body = await response.json();
    if (!response.ok) {
      throw new ApiFailure(body.error ?? { message: `status ${response.status}`, kind: "http", status: response.status });
    }
    if (body.complete !== false) {
      answers.set(key, body);
      return body;
    }
    if (!onPartial(asAnswer(body))) {
      return null;
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_PAUSE_MS));
  }
}

/** A partial answer in the shape of a whole one: the values found so far as its analysis. */
function asAnswer(partial) {
  const { moves, searching, positions, positions_per_second: rate, seconds, ...value } = partial.progress;
  const analysis = { ...value, moves, line: [], drawing: "", stats: { visited: positions } };
  return { ...partial, source: "search", analysis, progress: { searching, positions, rate, seconds } };
}
