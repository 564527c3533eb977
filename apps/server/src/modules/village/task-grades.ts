import { gradeOfScore } from '@smart/contracts';
import { eq } from 'drizzle-orm';
import type { Db } from '../../platform/db';
import { evaluationTask } from './tables';

/**
 * Tasks written before a task's grade followed from its score (the hooks write it with every score since)
 * get the grade their score gives (`gradeOfScore`), so no stored task shows a grade its score contradicts.
 */
export async function fixTaskGrades(db: Db) {
  const rows = await db
    .select({ id: evaluationTask.id, score: evaluationTask.score, grade: evaluationTask.grade })
    .from(evaluationTask);
  for (const row of rows) {
    const grade = gradeOfScore(row.score);
    if ((row.grade ?? null) !== grade)
      await db.update(evaluationTask).set({ grade }).where(eq(evaluationTask.id, row.id));
  }
}
