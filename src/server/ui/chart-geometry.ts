/**
 * Where a series of daily values goes on a chart: known values become points, a null day breaks
 * the line (a gap is shown as a gap, never bridged).
 */
export interface PlacedPoint {
  index: number;
  x: number;
  y: number;
  value: number;
}

export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

export interface Placement {
  points: PlacedPoint[];
  /** Runs of consecutive known days, each drawn as one line. */
  runs: PlacedPoint[][];
  min: number;
  max: number;
}

export function placeSeries(values: readonly (number | null)[], box: Box): Placement | null {
  const known = values.filter((value): value is number => value !== null);
  if (known.length === 0) return null;
  let min = Math.min(...known);
  let max = Math.max(...known);
  if (min === max) {
    min -= 1;
    max += 1;
  }
  const step = values.length > 1 ? box.width / (values.length - 1) : 0;
  const points: PlacedPoint[] = [];
  const runs: PlacedPoint[][] = [];
  let run: PlacedPoint[] = [];
  values.forEach((value, index) => {
    if (value === null) {
      if (run.length > 0) runs.push(run);
      run = [];
      return;
    }
    const point = {
      index,
      x: round(box.left + (values.length > 1 ? index * step : box.width / 2)),
      y: round(box.top + box.height - ((value - min) / (max - min)) * box.height),
      value,
    };
    points.push(point);
    run.push(point);
  });
  if (run.length > 0) runs.push(run);
  return { points, runs, min, max };
}

const round = (n: number): number => Math.round(n * 10) / 10;

/** An SVG path through each run; a run of one day is only its dot. */
export function runsPath(runs: readonly PlacedPoint[][]): string {
  return runs
    .filter((run) => run.length > 1)
    .map((run) => run.map((point, i) => `${i === 0 ? 'M' : 'L'}${point.x} ${point.y}`).join(' '))
    .join(' ');
}
