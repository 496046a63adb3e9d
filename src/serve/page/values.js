// Values as the page shows them: a value is the API's assessment object ({value, remoteness, and any other
// field a kind of value has: nimber, score, probability}); its colour follows the value word (green wins,
// yellow draws, red losses, darker for faster) and its text names every field it has, so that a new kind of
// value shows without a change here.

/** The hue of each value word; any other word is grey. */
export const HUES = { win: 135, draw: 48, loss: 2 };

/** Lightness of the fastest and of the slowest value, in percent. */
const DARKEST = 28;
const LIGHTEST = 64;

/** How good a value word is for the player it is the value of (a mistake lowers it). */
export function rank(word) {
  return { win: 2, draw: 1, loss: 0 }[word] ?? null;
}

/**
 * The colour of a value: the hue of its word, darker the fewer plies it takes among the values of its word
 * shown together (`scale`, from `remotenessScale`: the fastest of them darkest, the slowest lightest, one
 * shade between when they are all alike).
 */
export function colour(value, scale) {
  const hue = HUES[value.value];
  if (hue === undefined) {
    return "hsl(0 0% 60%)";
  }
  const remoteness = value.remoteness;
  const range = scale?.[value.value];
  let share = 0.5;
  if (typeof remoteness === "number" && range && range[1] > range[0]) {
    share = (remoteness - range[0]) / (range[1] - range[0]);
  }
  const lightness = DARKEST + (LIGHTEST - DARKEST) * Math.min(1, Math.max(0, share));
  const saturation = value.value === "draw" ? 85 : 62;
  return `hsl(${hue} ${saturation}% ${Math.round(lightness)}%)`;
}

/** The least and the largest remoteness of each value word among `values`. */
export function remotenessScale(values) {
  const scale = {};
  for (const value of values) {
    if (typeof value.remoteness === "number") {
      const [least, most] = scale[value.value] ?? [value.remoteness, value.remoteness];
      scale[value.value] = [Math.min(least, value.remoteness), Math.max(most, value.remoteness)];
    }
  }
  return scale;
}

/** Numbers of an analysis or a move that are not part of its value. */
const NOT_VALUES = new Set(["remoteness"]);

/** A value in words: `win in 7`, `draw`, `loss in 4 (nimber 0)`, `win (score 4)`. */
export function describe(value) {
  let text = value.value;
  if (typeof value.remoteness === "number") {
    text += ` in ${value.remoteness}`;
  }
  const extra = [];
  for (const [field, entry] of Object.entries(value)) {
    // A value's own numbers (nimber, score, probability, ...): the other fields are the move, the drawing...
    if (NOT_VALUES.has(field) || typeof entry !== "number") {
      continue;
    }
    const shown = typeof entry === "number" && !Number.isInteger(entry) ? entry.toPrecision(4) : entry;
    extra.push(`${field} ${shown}`);
  }
  return extra.length ? `${text} (${extra.join(", ")})` : text;
}

/** A short label for a move's marker on the board: its remoteness, or a letter for a draw. */
export function badge(value) {
  if (typeof value.score === "number") {
    return String(value.score);
  }
  if (typeof value.probability === "number") {
    return `${Math.round(value.probability * 100)}%`;
  }
  if (typeof value.remoteness === "number") {
    return String(value.remoteness);
  }
  return value.value === "draw" ? "=" : "";
}

/**
 * Orders values best first for the player they are the values of: by word, then a faster win before a slower
 * one and a slower loss before a faster one (as the engines rank them), then by score or probability.
 */
export function compare(first, second) {
  const byWord = (rank(second.value) ?? -1) - (rank(first.value) ?? -1);
  if (byWord !== 0) {
    return byWord;
  }
  for (const field of ["score", "probability"]) {
    if (typeof first[field] === "number" && typeof second[field] === "number" && first[field] !== second[field]) {
      return second[field] - first[field];
    }
  }
  const [one, two] = [first.remoteness, second.remoteness];
  if (typeof one !== "number" || typeof two !== "number") {
    return 0;
  }
  return first.value === "loss" ? two - one : one - two;
}
