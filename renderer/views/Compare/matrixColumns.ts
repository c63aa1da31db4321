import { createContext, useContext } from 'react';
import type { MatrixColumnId } from '../../../shared/comparison/report-settings.ts';

/** The comparison matrix's columns as last picked (null: each plan's own), kept in the settings. */
export interface MatrixColumnChoice {
  columns: MatrixColumnId[] | null;
  onColumns: (columns: MatrixColumnId[]) => void;
}

export const MatrixColumnsContext = createContext<MatrixColumnChoice | null>(null);

/** The kept column choice; the app provides it around every view that shows a matrix. */
export function useMatrixColumns(): MatrixColumnChoice {
  const choice = useContext(MatrixColumnsContext);
  if (!choice) throw new Error('useMatrixColumns needs a MatrixColumnsContext provider (App)');
  return choice;
}
