// Values as the page shows them: a value is the API's assessment object ({value, remoteness, and any other
// field a kind of value has: nimber, score, probability, expected_score, chance}). Its colour: a win/draw/loss
// by its word (green, yellow, red), darker the faster it comes or the bigger its margin; a probability of
// winning from red through yellow to green; an expected score by its sign, darker the larger it is. Its text
// names every number it has, so that a new kind of value shows without a change here.

/** The hue of each value word; any other word is grey. */
export const HUES = { win: 135, draw: 48, loss: 2 };

/** Lightness of the fastest (or largest) and of the slowest (or smallest) value, in percent. */
const DARKEST = 28;
const LIGHTEST = 64;

/** How good a value word is for the player it is the value of (a mistake lowers it). */
export function rank(word) {
  return { win: 2, draw: 1, loss: 0 }[word] ?? null;
}

/** The lightness of a value at `share` of its scale (0: darkest, 1: lightest). */
function lightness(share) {
  return Math.round(DARKEST + (LIGHTEST - DARKEST) * Math.min(1, Math.max(0, share)));
}

/** The hue of a probability of winning: red at 0, yellow at one half, green at 1. */
function probabilityHue(probability) {
  const p = Math.min(1, Math.max(0, probability));
  return p < 0.5 ? HUES.loss + (HUES.draw - HUES.loss) * 2 * p : HUES.draw + (HUES.win - HUES.draw) * (2 * p - 1);
}

/**
 * The colour of a value among the values shown together (`scale`, from `valueScale`): a probability by its
 * hue; a score by its word, darker the bigger its margin; an expected score by its sign, darker the larger;
 * a win or loss by its word, darker the fewer plies it takes (the fastest darkest, the slowest lightest, one
 * shade between when they are all alike).
 */
export function colour(value, scale) {
  if (typeof value.probability === "number") {
    return `hsl(${Math.round(probabilityHue(value.probability))} 70% 45%)`;
  }
  if (typeof value.expected_score === "number") {
    const score = value.expected_score;
    const word = score > 1e-9 ? "win" : score < -1e-9 ? "loss" : "draw";
    const largest = scale?.expected ?? 0;
    return `hsl(${HUES[word]} 62% ${lightness(largest > 0 ? 1 - Math.abs(score) / largest : 0.5)}%)`;
  }
  const hue = HUES[value.value];
  if (hue === undefined) {
    return "hsl(0 0% 60%)";
  }
  const saturation = value.value === "draw" ? 85 : 62;
  let share = 0.5;
  if (typeof value.score === "number") {
    const largest = scale?.score ?? 0;
    if (value.score !== 0 && largest > 0) {
      share = 1 - Math.abs(value.score) / largest;
    }
  } else {
    const range = scale?.[value.value];
    if (typeof value.remoteness === "number" && range && range[1] > range[0]) {
      share = (value.remoteness - range[0]) / (range[1] - range[0]);
    }
  }
  return `hsl(${hue} ${saturation}% ${lightness(share)}%)`;
}

/**
 * The scale of `values` shown together: the least and the largest remoteness of each value word, the
 * largest margin (`score`) and the largest expected score (`expected`), each in absolute value.
 */
export function valueScale(values) {
  const scale = { score: 0, expected: 0 };
  for (const value of values) {
    if (typeof value.remoteness === "number") {
      const [least, most] = scale[value.value] ?? [value.remoteness, value.remoteness];
      scale[value.value] = [Math.min(least, value.remoteness), Math.max(most, value.remoteness)];
    }
    if (typeof value.score === "number") {
      scale.score = Math.max(scale.score, Math.abs(value.score));
    }
    if (typeof value.expected_score === "number") {
      scale.expected = Math.max(scale.expected, Math.abs(value.expected_score));
    }
  }
  return scale;
}

/** The value word for the other player. */
export function flipped(word) {
  return { win: "loss", loss: "win" }[word] ?? word;
}

/** A value (for the player to move) as the other player sees it: the game is zero-sum. */
export function seenByOther(value) {
  const other = { ...value, value: flipped(value.value) };
  for (const field of ["score", "expected_score"]) {
    if (typeof value[field] === "number") {
      other[field] = -value[field];
    }
  }
  if (typeof value.probability === "number") {
    other.probability = 1 - value.probability;
  }
  return other;
}

/** Whether a move is an outcome of chance (its `chance` is its probability, as `1/6`). */
export function isOutcome(move) {
  return typeof move.chance === "string";
}

/** An outcome's probability, from its `chance` (`1/6`); null when it has none. */
export function outcomeProbability(move) {
  const [numerator, denominator] = (move.chance ?? "").split("/").map(Number);
  return denominator > 0 ? numerator / denominator : null;
}

/** Whether `moves` are a chance node's: outcomes all, none chosen by a player. */
export function isChanceNode(moves) {
  return moves.length > 0 && moves.every(isOutcome);
}

/** One of a chance node's outcomes (`moves`), drawn by its probability (`random`: uniform in [0, 1)). */
export function drawOutcome(moves, random = Math.random) {
  const outcomes = moves.map((move) => [move.move, outcomeProbability(move) ?? 0]);
  const total = outcomes.reduce((sum, [, probability]) => sum + probability, 0);
  let left = random() * total;
  for (const [move, probability] of outcomes) {
    left -= probability;
    if (left < 0) {
      return move;
    }
  }
  return outcomes[outcomes.length - 1][0];
}

/** How a finished game ended for the player to move, from its value: `win`, `loss` or `draw`. */
export function finalWord(value) {
  if (typeof value.score === "number") {
    return value.score > 0 ? "win" : value.score < 0 ? "loss" : "draw";
  }
  if (typeof value.probability === "number") {
    return value.probability > 0.5 ? "win" : value.probability < 0.5 ? "loss" : "draw";
  }
  return value.value;
}

/** The legend's note on the shades of values of the kind of `value`. */
export function shadeNote(value) {
  if (typeof value.probability === "number") {
    return `(for the player making the move: the probability of winning, from red at ${percent(0)} through yellow to green at ${percent(1)})`;
  }
  if (typeof value.score === "number" || typeof value.expected_score === "number") {
    return "(for the player making the move; darker is a bigger margin)";
  }
  return "(for the player making the move; darker is faster)";
}

/** A probability as a percentage with `digits` decimals at most (`79.7%`, `100%`). */
export function percent(probability, digits = 1) {
  return `${Number((probability * 100).toFixed(digits))}%`;
}

/** Numbers of an analysis or a move that are not part of its value, or that its words already say. */
const NOT_VALUES = new Set(["remoteness", "score", "probability", "expected_score", "error"]);

/**
 * A value in words: `win in 7`, `draw`, `loss in 4 (nimber 0)`, `win by 4`, `wins with probability 79.7%`,
 * `expects 2.5`; an outcome of chance adds its own probability (`outcome of probability 1/6`).
 */
export function describe(value) {
  let text = value.value;
  if (typeof value.probability === "number") {
    text = `wins with probability ${percent(value.probability)}`;
  } else if (typeof value.expected_score === "number") {
    text = `expects ${Number(value.expected_score.toFixed(3))}`;
  } else if (typeof value.score === "number" && value.score !== 0) {
    text = `${value.value} by ${Math.abs(value.score)}`;
  } else if (typeof value.remoteness === "number") {
    text += ` in ${value.remoteness}`;
  }
  const extra = [];
  for (const [field, entry] of Object.entries(value)) {
    // A value's own numbers (nimber, ...): the other fields are the move, the drawing...
    if (NOT_VALUES.has(field) || typeof entry !== "number") {
      continue;
    }
    extra.push(`${field} ${Number.isInteger(entry) ? entry : entry.toPrecision(4)}`);
  }
  if (isOutcome(value)) {
    extra.push(`outcome of probability ${value.chance}`);
  }
  return extra.length ? `${text} (${extra.join(", ")})` : text;
}

/** A short label for a move's marker: its score, probability of winning, expected score or remoteness. */
export function badge(value) {
  if (typeof value.score === "number") {
    return value.score > 0 ? `+${value.score}` : String(value.score);
  }
  if (typeof value.probability === "number") {
    return percent(value.probability, 0);
  }
  if (typeof value.expected_score === "number") {
    return value.expected_score.toFixed(1);
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
  for (const field of ["score", "probability", "expected_score"]) {
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
