/**
 * The store's cases as the commands use them (Store.cases()): every call guarded like the
 * Store's own (SQLite's errors become one StoreError line), and the custody log's storage
 * (evidence/custody-log.ts CustodyStorage) over the custody table.
 */
import type { CustodyStorage } from '../../evidence/custody-log.js';
import { appendCustody, caseLinked, custodyLines, findCases, insertCase, isLinked, listCases } from './cases.js';
import type { Sql } from './sqlite.js';
import type { CaseLinked, CaseRow, NewCase } from '../case-rows.js';


export class CaseStore implements CustodyStorage {
  constructor(
    private readonly sql: Sql,
    private readonly guard: <T>(fn: () => T) => T,
    private readonly now: () => number,
  ) {}

  create(c: NewCase, first: () => string): CaseRow {
    return this.guard(() => insertCase(this.sql, c, first));
  }
  list(): CaseRow[] {
    return this.guard(() => listCases(this.sql));
  }
  find(ref: string): CaseRow[] {
    return this.guard(() => findCases(this.sql, ref));
  }
  /** The results linked to the case, whole, as stored: batch/case-results.ts holds them to the custody log. */
  linked(caseId: string): CaseLinked[] {
    return this.guard(() => caseLinked(this.sql, caseId));
  }
  isLinked(caseId: string, resultId: number): boolean {
    return this.guard(() => isLinked(this.sql, caseId, resultId));
  }

  // CustodyStorage: synchronous underneath, so entries land in the order appends are called.
  async lines(caseId: string): Promise<string[]> {
    return this.guard(() => custodyLines(this.sql, caseId));
  }
  async append(caseId: string, make: (lastLine: string | undefined) => string): Promise<string> {
    return this.guard(() => appendCustody(this.sql, caseId, make));
  }

  /** A storage whose next appends also link this result to the case, in the same transaction. */
  linking(resultId: number): CustodyStorage {
    return {
      lines: (caseId) => this.lines(caseId),
      append: async (caseId, make) => this.guard(() => appendCustody(this.sql, caseId, make, { resultId, at: new Date(this.now()).toISOString() })),
    };
  }
}
