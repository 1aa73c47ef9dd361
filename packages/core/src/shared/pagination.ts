export interface Page {
  page: number;
  limit: number;
}

export interface Pagination extends Page {
  total: number;
  totalPages: number;
}

export const offsetOf = ({ page, limit }: Page) => (page - 1) * limit;

export const paginationOf = ({ page, limit }: Page, total: number): Pagination => ({
  total,
  page,
  limit,
  totalPages: Math.ceil(total / limit),
});
