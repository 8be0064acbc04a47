import { createUnitOfWork, type UnitOfWork, type UnitsOfWork } from '@bunting/platform';

/** Signals' changes: the platform's unit of work, its events and received signals written to signals' outbox together. */
export const createSignalChanges = createUnitOfWork;
export type SignalChange = UnitOfWork;
export type SignalChanges = UnitsOfWork;
