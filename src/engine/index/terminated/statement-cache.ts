import type Database from 'better-sqlite3';

/**
 * Prepared statements by SQL text, kept for the life of the reader. A search's SQL depends only on
 * which filters and which sort it uses, so a handful of shapes serve every request; the cap keeps
 * an unusual mix of filters from growing it without bound. A statement keeps its mode (`pluck`):
 * each SQL text is always read the same way.
 */
export class StatementCache {
  private readonly statements = new Map<string, Database.Statement>();

  constructor(
    private readonly db: Database.Database,
    private readonly capacity = 256,
  ) {}

  get(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (statement) {
      // Most recently used last, so the oldest is evicted first.
      this.statements.delete(sql);
    } else {
      statement = this.db.prepare(sql);
      if (this.statements.size >= this.capacity) this.statements.delete(this.statements.keys().next().value!);
    }
    this.statements.set(sql, statement);
    return statement;
  }
}
