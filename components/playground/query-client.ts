import { QueryClient } from "@tanstack/react-query";
import { isApiError, isMissingRoute } from "../api/errors.ts";

/** Auth failures and missing routes are answers, not flakes: do not retry them. */
export function makeQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        refetchOnWindowFocus: false,
        staleTime: 1000,
        retry: (failures, error) => failures < 2 && !isMissingRoute(error) && !isApiError(error, 401) && !isApiError(error, 403),
      },
    },
  });
}
