/** One node of Postgres's `EXPLAIN (FORMAT JSON)` plan, with the fields the tests look at. */
export interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

/** Anything that runs a query with parameters: a pg Pool or Client. */
interface Queryable {
  query<R extends object>(sql: string, params?: unknown[]): Promise<{ rows: R[] }>;
}

/**
 * Postgres's plan for `sql`, flattened (the root first, then every child, depth first): what a
 * test reads to prove a query takes its index and sorts nothing.
 */
export async function queryPlan(pg: Queryable, sql: string, params: unknown[] = []): Promise<PlanNode[]> {
  const res = await pg.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(`EXPLAIN (FORMAT JSON) ${sql}`, params);
  const flatten = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(flatten)];
  return flatten(res.rows[0]!['QUERY PLAN'][0].Plan);
}
