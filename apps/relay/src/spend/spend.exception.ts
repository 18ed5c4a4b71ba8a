import { domainException } from '@agp/http';

export enum SpendErrorCode {
  PriceNotFound = 'model-price-not-found',
  PriceTaken = 'model-price-taken',
  BudgetNotFound = 'budget-not-found',
  BudgetTaken = 'budget-taken',
}

/** Errors of prices and budgets (D60, STYLE § 8); a bad field is a D12 400. */
export class SpendException extends domainException<SpendErrorCode>({
  [SpendErrorCode.PriceNotFound]: 404,
  [SpendErrorCode.PriceTaken]: 409,
  [SpendErrorCode.BudgetNotFound]: 404,
  [SpendErrorCode.BudgetTaken]: 409,
}) {}
