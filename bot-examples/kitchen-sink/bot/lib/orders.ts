/** Shared order data for tools and schedules (lib/ is imported, never discovered). */
export interface Order {
  id: string;
  status: "paid" | "shipped" | "delivered" | "refunded";
  total: number;
  items: string[];
}

const ORDERS: Order[] = [
  { id: "A-1001", status: "shipped", total: 42.5, items: ["mug", "coffee beans"] },
  { id: "A-1002", status: "paid", total: 19, items: ["tea towel"] },
  { id: "A-1003", status: "refunded", total: 120, items: ["grinder"] },
];

export function findOrder(id: string): Order | undefined {
  return ORDERS.find((order) => order.id === id.toUpperCase());
}

export function openOrders(): Order[] {
  return ORDERS.filter((order) => order.status === "paid" || order.status === "shipped");
}
