import { type AdminPermission, roleMay, type StaffRole } from '@store/contract';

/**
 * The console's pages and the permission each needs, from the contract's one policy table: a staff
 * member is shown only what the API would let them do, so no link or button leads to a 403.
 */
export const SECTIONS = [
  { id: 'dashboard', path: 'dashboard', permission: 'dashboard.read' },
  { id: 'orders', path: 'orders', permission: 'orders.read' },
  { id: 'audit', path: 'audit', permission: 'audit.read' },
  { id: 'stock', path: 'stock', permission: 'codes.read' },
  { id: 'products', path: 'products', permission: 'catalogue.write' },
  { id: 'promo', path: 'promo-codes', permission: 'promo.write' },
  { id: 'customers', path: 'customers', permission: 'customers.read' },
  { id: 'staff', path: 'staff', permission: 'staff.manage' },
] as const satisfies readonly { id: string; path: string; permission: AdminPermission }[];
export type Section = (typeof SECTIONS)[number];
export type SectionId = Section['id'];

export const sectionsFor = (role: StaffRole): Section[] =>
  SECTIONS.filter((section) => roleMay(role, section.permission));

export const canSee = (role: StaffRole, id: SectionId): boolean =>
  sectionsFor(role).some((section) => section.id === id);

/** The first page a role lands on after signing in. */
export const homeFor = (role: StaffRole): string => sectionsFor(role)[0]?.path ?? 'orders';

export { roleMay as can };
