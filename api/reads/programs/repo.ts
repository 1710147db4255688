import { type AuditEntry, recordAudit } from '../../../domain/tables/audit.js';
import { enqueueOutbox } from '../../../domain/tables/outbox.js';
import type { ProgramSummary } from '../../../domain/tables/programs.js';
import type { PgClient, Queryable } from '../../../internal/pg.js';
import { AppError, NotFoundError, ValidationError } from '../../errors.js';
import { resolveOpportunityId } from '../opportunities/readContext.js';
import type { CreateProgramBody, ListProgramsQuery, UpdateProgramBody } from './schema.js';
import { PROBLEMS } from '../../problems/registry.js';

export type ProgramRow = ProgramSummary;
type Actor = Pick<AuditEntry, 'actor' | 'requestId'>;
/** What a program write changed: the program after it and the opportunities whose documents must follow. */

const COLUMNS = 'p.id::text AS id, p.slug, p.name, p.description, p.icon';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Pure: the WHERE clause and values of the list filters (`name` substring in any case, `slugs` comma list). */
function listFilter(q: Pick<ListProgramsQuery, 'name' | 'slugs'>): { where: string; values: unknown[] } {
  const clauses: string[] = [];
  const values: unknown[] = [];
  if (q.name) {
    values.push(`%${q.name.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    clauses.push(`p.name ILIKE $${values.length}`);
  }
  if (q.slugs) {
    values.push([...new Set(q.slugs.split(','))]);
    clauses.push(`p.slug = ANY($${values.length}::text[])`);
  }
  return { where: clauses.length ? `WHERE ${clauses.join(' AND ')}` : '', values };
}

/** One page of programs matching the filters, by name then id. Table programs. */
export async function listProgramRows(db: Queryable, q: ListProgramsQuery): Promise<ProgramRow[]> {
  const { where, values } = listFilter(q);
  const { rows } = await db.query<ProgramRow>(
    `SELECT ${COLUMNS} FROM programs p ${where} ORDER BY p.name, p.id LIMIT $${values.length + 1} OFFSET $${values.length + 2}`,
    [...values, q.items, q.page * q.items],
  );
  return rows;
}

/** Number of programs matching the filters. Table programs. */
export async function countProgramRows(db: Queryable, q: Pick<ListProgramsQuery, 'name' | 'slugs'>): Promise<number> {
  const { where, values } = listFilter(q);
  const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM programs p ${where}`, values);
  return rows[0]?.n ?? 0;
}

/** A program by id (a uuid) or slug; undefined when none. `forUpdate` locks its row (inside a transaction). */
export async function findProgramRow(
  db: Queryable,
  idOrSlug: string,
  forUpdate = false,
): Promise<ProgramRow | undefined> {
  const byId = UUID.test(idOrSlug);
  const { rows } = await db.query<ProgramRow>(
    `SELECT ${COLUMNS} FROM programs p WHERE ${byId ? 'p.id = $1::uuid' : 'p.slug = $1'}${forUpdate ? ' FOR UPDATE' : ''}`,
    [idOrSlug],
  );
  return rows[0];
}

/** Pure: a slug made of a program's name (folded, lower case, runs of anything else as one `-`); '' when nothing is left. */
export function slugOfName(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+/, '')
    .slice(0, 64)
    .replace(/-+$/, '');
}

/**
 * Path ids of opportunities (`field` names the body's list) → their internal ids; a 400 naming each entry that is no
 * stored opportunity. Table opportunities.
 */
async function resolveOpportunities(tx: PgClient, field: string, pathIds: readonly string[]): Promise<string[]> {
  const ids = pathIds.map(resolveOpportunityId);
  if (!ids.length) return [];
  const { rows } = await tx.query<{ id: string }>('SELECT id FROM opportunities WHERE id = ANY($1::text[])', [ids]);
  const known = new Set(rows.map((r) => r.id));
  const unknown = ids.flatMap((id, i) =>
    known.has(id) ? [] : [{ field: `${field}.${i}`, message: `no opportunity ${pathIds[i]}` }],
  );
  if (unknown.length) throw new ValidationError(unknown);
  return [...new Set(ids)];
}

/** Ids of the opportunities whose program_slugs hold `slug`, sorted. */
async function membersOf(tx: PgClient, slug: string): Promise<string[]> {
  const { rows } = await tx.query<{ id: string }>(
    'SELECT id FROM opportunities WHERE program_slugs @> ARRAY[$1::text] ORDER BY id',
    [slug],
  );
  return rows.map((r) => r.id);
}

/** Adds `slug` to the program_slugs of `ids` (kept distinct and sorted). */
async function addMembers(tx: PgClient, slug: string, ids: string[]): Promise<void> {
  if (!ids.length) return;
  await tx.query(
    `UPDATE opportunities SET program_slugs = ARRAY(SELECT DISTINCT s FROM unnest(program_slugs || ARRAY[$1::text]) AS s ORDER BY s)
     WHERE id = ANY($2::text[]) AND NOT program_slugs @> ARRAY[$1::text]`,
    [slug, ids],
  );
}

const isUniqueViolation = (e: unknown) => (e as { code?: string }).code === '23505';
const slugTaken = (slug: string) =>
  new AppError(PROBLEMS.CONFLICT, `A program with slug ${slug} already exists`, {
    errors: [{ field: 'slug', message: `${slug} is taken` }],
  });

/** The audit shape of a program: its fields and its members. */
const auditShape = (p: ProgramRow, opportunities: string[]) => ({ ...p, opportunities });

/**
 * Creates a program and adds it to the program_slugs of `body.opportunities`, queues their outbox entries and records
 * the audit row, in the caller's transaction (api/search/writeAndPublish.ts). 409 when the slug is taken, 400 naming an unknown opportunity or an empty slug.
 * Tables programs, opportunities, search_outbox, back_office_audit.
 */
export async function createProgram(tx: PgClient, by: Actor, body: CreateProgramBody): Promise<ProgramRow> {
  const slug = body.slug ?? slugOfName(body.name);
  if (!slug)
    throw new ValidationError([
      { field: 'slug', message: 'cannot be made of this name: give a slug (a-z, 0-9, -, _)' },
    ]);
  const members = await resolveOpportunities(tx, 'opportunities', body.opportunities ?? []);
  const inserted = await tx
    .query<ProgramRow>(
      `INSERT INTO programs AS p (slug, name, description, icon) VALUES ($1, $2, $3, $4) RETURNING ${COLUMNS}`,
      [slug, body.name, body.description ?? '', body.icon ?? ''],
    )
    .catch((e: unknown) => {
      throw isUniqueViolation(e) ? slugTaken(slug) : e;
    });
  const program = inserted.rows[0]!;
  await addMembers(tx, slug, members);
  const after = await membersOf(tx, slug);
  await enqueueOutbox(tx, 'opportunity', after);
  await recordAudit(tx, {
    ...by,
    action: 'create',
    entity: 'program',
    entityId: program.id,
    before: null,
    after: auditShape(program, after),
  });
  return program;
}

/**
 * Updates a program (id or slug): its fields, its slug in every member's program_slugs when it changes, members added
 * and removed; queues the outbox entries of every member before and after (their documents carry the program) and
 * records the audit row, in the caller's transaction. 404 when there is no such program, 409 when the new slug is taken.
 */
export async function updateProgram(
  tx: PgClient,
  by: Actor,
  idOrSlug: string,
  body: UpdateProgramBody,
): Promise<ProgramRow> {
  const before = await findProgramRow(tx, idOrSlug, true);
  if (!before) throw new NotFoundError(`No program ${idOrSlug}`);
  const toAdd = await resolveOpportunities(tx, 'opportunitiesToAdd', body.opportunitiesToAdd ?? []);
  const toRemove = await resolveOpportunities(tx, 'opportunitiesToRemove', body.opportunitiesToRemove ?? []);
  const membersBefore = await membersOf(tx, before.slug);
  const updated = await tx
    .query<ProgramRow>(
      `UPDATE programs AS p SET slug = COALESCE($2, slug), name = COALESCE($3, name), description = COALESCE($4, description),
         icon = COALESCE($5, icon), updated_at = now() WHERE p.id = $1::uuid RETURNING ${COLUMNS}`,
      [before.id, body.slug ?? null, body.name ?? null, body.description ?? null, body.icon ?? null],
    )
    .catch((e: unknown) => {
      throw isUniqueViolation(e) ? slugTaken(body.slug ?? '') : e;
    });
  const program = updated.rows[0]!;
  if (program.slug !== before.slug)
    await tx.query(
      `UPDATE opportunities SET program_slugs = ARRAY(SELECT DISTINCT s FROM unnest(array_replace(program_slugs, $1, $2)) AS s ORDER BY s)
       WHERE program_slugs @> ARRAY[$1::text]`,
      [before.slug, program.slug],
    );
  await addMembers(tx, program.slug, toAdd);
  if (toRemove.length)
    await tx.query(
      'UPDATE opportunities SET program_slugs = array_remove(program_slugs, $1) WHERE id = ANY($2::text[])',
      [program.slug, toRemove],
    );
  const membersAfter = await membersOf(tx, program.slug);
  const touched = [...new Set([...membersBefore, ...membersAfter])].sort();
  await enqueueOutbox(tx, 'opportunity', touched);
  await recordAudit(tx, {
    ...by,
    action: 'update',
    entity: 'program',
    entityId: program.id,
    before: auditShape(before, membersBefore),
    after: auditShape(program, membersAfter),
  });
  return program;
}
