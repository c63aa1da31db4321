import { z } from 'zod';

/* Bounded numbers of a form or a file, each message naming the field. */

export interface Bounds {
  min: number;
  max: number;
}

/** A number within the bounds: "<name> must be at least <min>". */
export const boundedNumber = (name: string, lim: Bounds) =>
  z
    .number({ error: `${name} must be a number` })
    .min(lim.min, `${name} must be at least ${lim.min}`)
    .max(lim.max, `${name} must be at most ${lim.max}`);

/** A whole number within the bounds. */
export const boundedInt = (name: string, lim: Bounds) =>
  boundedNumber(name, lim).int(`${name} must be a whole number`);
