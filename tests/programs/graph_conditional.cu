// Conditional graph nodes: WHILE (a body that counts down the condition its kernel sets),
// IF with an ELSE body, SWITCH over three bodies (and a value past them, which runs none),
// conditions that a graph launch resets to their default (cudaGraphCondAssignDefault) and
// ones it leaves as the last kernel set them; and what CUDA refuses (a graph with one as a
// child graph, a second executable graph of it or a clone, bodies of the wrong number), and
// which graph an executable graph updated from another holds.
#include <cstdio>
#include <cstring>

#include "test_util.h"

__global__ void set_to(cudaGraphConditionalHandle h, int *counter, int start) {
    *counter = start;
    cudaGraphSetConditional(h, start > 0);
}

// The loop's body: one more pass counted, the counter down, the loop on while it is positive.
__global__ void count_down(cudaGraphConditionalHandle h, int *counter, int *passes) {
    ++*passes;
    cudaGraphSetConditional(h, --*counter > 0);
}

__global__ void set_from(cudaGraphConditionalHandle h, const int *value) {
    cudaGraphSetConditional(h, (unsigned)*value);
}

__global__ void store(int *out, int value) { *out = value; }
__global__ void add_one(int *out) { ++*out; }
__global__ void clear(cudaGraphConditionalHandle h) { cudaGraphSetConditional(h, 0); }

static cudaGraphNode_t kernel_node(cudaGraph_t g, const cudaGraphNode_t *deps, size_t ndeps,
                                   void *fn, void **args) {
    cudaKernelNodeParams k = {};
    cudaGraphNode_t n;
    k.func = fn;
    k.gridDim = dim3(1);
    k.blockDim = dim3(1);
    k.kernelParams = args;
    CHECK(cudaGraphAddKernelNode(&n, g, deps, ndeps, &k));
    return n;
}

// A conditional node of type and size after deps; its bodies in bodies.
static cudaGraphNode_t conditional(cudaGraph_t g, const cudaGraphNode_t *deps, size_t ndeps,
                                   cudaGraphConditionalHandle h, cudaGraphConditionalNodeType type,
                                   unsigned size, cudaGraph_t *bodies) {
    cudaGraphNodeParams p = {};
    cudaGraphNode_t n;
    p.type = cudaGraphNodeTypeConditional;
    p.conditional.handle = h;
    p.conditional.type = type;
    p.conditional.size = size;
    CHECK(cudaGraphAddNode(&n, g, deps, nullptr, ndeps, &p));
    for (unsigned i = 0; i < size; i++)
        bodies[i] = p.conditional.phGraph_out[i];
    return n;
}

static int fetch(const int *d) {
    int v = 0;
    CHECK(cudaMemcpy(&v, d, sizeof v, cudaMemcpyDeviceToHost));
    return v;
}

static void put(int *d, int v) { CHECK(cudaMemcpy(d, &v, sizeof v, cudaMemcpyHostToDevice)); }

static void launch(cudaGraph_t g, cudaStream_t s, int times) {
    cudaGraphExec_t e;
    CHECK(cudaGraphInstantiate(&e, g, 0));
    for (int i = 0; i < times; i++)
        CHECK(cudaGraphLaunch(e, s));
    CHECK(cudaStreamSynchronize(s));
    CHECK(cudaGraphExecDestroy(e));
}

int main() {
    Checker c;
    cudaStream_t s;
    int *d;
    CHECK(cudaStreamCreate(&s));
    CHECK(cudaMalloc(&d, 8 * sizeof(int)));
    CHECK(cudaMemset(d, 0, 8 * sizeof(int)));
    int *counter = d, *passes = d + 1, *value = d + 2, *out = d + 3, *runs = d + 4;

    // WHILE: set_to starts the count at 5, the body runs until it reaches 0.
    {
        cudaGraph_t g, body;
        cudaGraphConditionalHandle h;
        CHECK(cudaGraphCreate(&g, 0));
        CHECK(cudaGraphConditionalHandleCreate(&h, g, 0, 0));
        int start = 5;
        void *set_args[] = {&h, &counter, &start};
        cudaGraphNode_t first = kernel_node(g, nullptr, 0, (void *)set_to, set_args);
        conditional(g, &first, 1, h, cudaGraphCondTypeWhile, 1, &body);
        void *body_args[] = {&h, &counter, &passes};
        kernel_node(body, nullptr, 0, (void *)count_down, body_args);
        launch(g, s, 2);
        if (fetch(passes) != 10 || fetch(counter) != 0)
            c.fail("while: %d passes, counter %d after two launches; want 10 and 0",
                   fetch(passes), fetch(counter));
        CHECK(cudaGraphDestroy(g));
    }

    // IF with ELSE: value > 0 runs body 0 (stores 1), else body 1 (stores 2).
    {
        cudaGraph_t g, bodies[2];
        cudaGraphConditionalHandle h;
        CHECK(cudaGraphCreate(&g, 0));
        CHECK(cudaGraphConditionalHandleCreate(&h, g, 0, 0));
        void *set_args[] = {&h, &value};
        cudaGraphNode_t first = kernel_node(g, nullptr, 0, (void *)set_from, set_args);
        conditional(g, &first, 1, h, cudaGraphCondTypeIf, 2, bodies);
        int one = 1, two = 2;
        void *then_args[] = {&out, &one}, *else_args[] = {&out, &two};
        kernel_node(bodies[0], nullptr, 0, (void *)store, then_args);
        kernel_node(bodies[1], nullptr, 0, (void *)store, else_args);
        // The DOT description draws both bodies' kernels.
        CHECK(cudaGraphDebugDotPrint(g, "graph_conditional.dot", 0));
        FILE *f = fopen("graph_conditional.dot", "r");
        char text[8192] = {0};
        size_t got = f ? fread(text, 1, sizeof text - 1, f) : 0;
        if (f) fclose(f);
        remove("graph_conditional.dot");
        const char *at = strstr(text, "store"), *again = at ? strstr(at + 1, "store") : nullptr;
        if (!got || !again) c.fail("the DOT description lacks the two bodies' kernels");
        put(value, 7);
        launch(g, s, 1);
        if (fetch(out) != 1) c.fail("if: value 7 stored %d, want 1", fetch(out));
        put(value, 0);
        launch(g, s, 1);
        if (fetch(out) != 2) c.fail("if: value 0 stored %d, want 2 (the else body)", fetch(out));
        CHECK(cudaGraphDestroy(g));
    }

    // SWITCH over three bodies, the condition from memory; 5 runs none.
    {
        cudaGraph_t g, bodies[3];
        cudaGraphConditionalHandle h;
        CHECK(cudaGraphCreate(&g, 0));
        CHECK(cudaGraphConditionalHandleCreate(&h, g, 0, 0));
        void *set_args[] = {&h, &value};
        cudaGraphNode_t first = kernel_node(g, nullptr, 0, (void *)set_from, set_args);
        conditional(g, &first, 1, h, cudaGraphCondTypeSwitch, 3, bodies);
        int stored[3] = {10, 11, 12};
        void *args[3][2] = {{&out, &stored[0]}, {&out, &stored[1]}, {&out, &stored[2]}};
        for (int i = 0; i < 3; i++)
            kernel_node(bodies[i], nullptr, 0, (void *)store, args[i]);
        cudaGraphExec_t e;
        CHECK(cudaGraphInstantiate(&e, g, 0));
        for (int v = 0; v < 3; v++) {
            put(value, v);
            CHECK(cudaGraphLaunch(e, s));
            CHECK(cudaStreamSynchronize(s));
            if (fetch(out) != 10 + v) c.fail("switch: value %d stored %d, want %d", v, fetch(out), 10 + v);
        }
        put(out, -1);
        put(value, 5);
        CHECK(cudaGraphLaunch(e, s));
        CHECK(cudaStreamSynchronize(s));
        if (fetch(out) != -1) c.fail("switch: value 5 (no body) stored %d", fetch(out));
        CHECK(cudaGraphExecDestroy(e));
        CHECK(cudaGraphDestroy(g));
    }

    // Defaults. With cudaGraphCondAssignDefault each launch starts the condition at its
    // default (1), so an IF whose body counts runs every launch though a kernel after it
    // clears the condition. Without it the condition starts at 0 (as NVIDIA's driver gives
    // it, on an H100) and keeps what the last launch's kernel set: here set_from copies
    // *value (1) after the IF, so the body runs from the second launch on.
    for (int assign = 0; assign < 2; assign++) {
        cudaGraph_t g, body;
        cudaGraphConditionalHandle h;
        put(runs, 0);
        put(value, 1);
        CHECK(cudaGraphCreate(&g, 0));
        CHECK(cudaGraphConditionalHandleCreate(&h, g, 1, assign ? cudaGraphCondAssignDefault : 0));
        cudaGraphNode_t node = conditional(g, nullptr, 0, h, cudaGraphCondTypeIf, 1, &body);
        void *count_args[] = {&runs}, *clear_args[] = {&h}, *set_args[] = {&h, &value};
        kernel_node(body, nullptr, 0, (void *)add_one, count_args);
        if (assign)
            kernel_node(g, &node, 1, (void *)clear, clear_args);
        else
            kernel_node(g, &node, 1, (void *)set_from, set_args);
        launch(g, s, 3);
        if (fetch(runs) != (assign ? 3 : 2))
            c.fail("%s: the body ran %d times in 3 launches, want %d",
                   assign ? "default assigned at each launch" : "no default", fetch(runs),
                   assign ? 3 : 2);
        CHECK(cudaGraphDestroy(g));
    }

    // A graph with a conditional node is no child graph (NVIDIA's driver: not supported).
    {
        cudaGraph_t parent, child, body;
        cudaGraphConditionalHandle h;
        cudaGraphNode_t n;
        CHECK(cudaGraphCreate(&parent, 0));
        CHECK(cudaGraphCreate(&child, 0));
        CHECK(cudaGraphConditionalHandleCreate(&h, child, 1, cudaGraphCondAssignDefault));
        conditional(child, nullptr, 0, h, cudaGraphCondTypeIf, 1, &body);
        cudaError_t e = cudaGraphAddChildGraphNode(&n, parent, nullptr, 0, child);
        if (e != cudaErrorNotSupported)
            c.fail("a child graph with a conditional node: %s, want cudaErrorNotSupported",
                   cudaGetErrorName(e));
        cudaGetLastError();
        CHECK(cudaGraphDestroy(parent));
        CHECK(cudaGraphDestroy(child));
    }

    // One executable graph at a time, and no clone (cuda.h: a graph with conditional nodes
    // "Only one instantiation of the graph may exist at any point in time. The graph
    // cannot be cloned."): the second instantiation is refused until the first is
    // destroyed (cudaErrorNotSupported, as the clone, on an H100); the executable graph
    // takes an update from another such graph and outlives both.
    {
        cudaGraph_t g, body, clone = nullptr;
        cudaGraphConditionalHandle h;
        cudaGraphExec_t first, second = nullptr;
        put(runs, 0);
        CHECK(cudaGraphCreate(&g, 0));
        CHECK(cudaGraphConditionalHandleCreate(&h, g, 1, cudaGraphCondAssignDefault));
        conditional(g, nullptr, 0, h, cudaGraphCondTypeIf, 1, &body);
        void *count_args[] = {&runs};
        kernel_node(body, nullptr, 0, (void *)add_one, count_args);
        cudaError_t e = cudaGraphClone(&clone, g);
        if (e != cudaErrorNotSupported)
            c.fail("cloning a graph with a conditional node: %s, want cudaErrorNotSupported",
                   cudaGetErrorName(e));
        cudaGetLastError();
        CHECK(cudaGraphInstantiate(&first, g, 0));
        e = cudaGraphInstantiate(&second, g, 0);
        if (e != cudaErrorNotSupported)
            c.fail("a second instantiation: %s, want cudaErrorNotSupported", cudaGetErrorName(e));
        cudaGetLastError();
        CHECK(cudaGraphExecDestroy(first));
        CHECK(cudaGraphInstantiate(&second, g, 0));
        // an update from another graph of the same shape, its own handle and all, is taken
        cudaGraph_t other, other_body;
        cudaGraphConditionalHandle other_h;
        cudaGraphExecUpdateResultInfo info = {};
        CHECK(cudaGraphCreate(&other, 0));
        CHECK(cudaGraphConditionalHandleCreate(&other_h, other, 1, cudaGraphCondAssignDefault));
        conditional(other, nullptr, 0, other_h, cudaGraphCondTypeIf, 1, &other_body);
        kernel_node(other_body, nullptr, 0, (void *)add_one, count_args);
        e = cudaGraphExecUpdate(second, other, &info);
        if (e != cudaSuccess || info.result != cudaGraphExecUpdateSuccess)
            c.fail("an update from another graph with a conditional node: %s, result %d",
                   cudaGetErrorName(e), (int)info.result);
        cudaGetLastError();
        CHECK(cudaGraphDestroy(other));
        CHECK(cudaGraphDestroy(g));
        CHECK(cudaGraphLaunch(second, s));
        CHECK(cudaStreamSynchronize(s));
        CHECK(cudaGraphExecDestroy(second));
        if (fetch(runs) != 1)
            c.fail("the executable graph made after the first went ran its body %d times, want 1",
                   fetch(runs));
    }

    // An update from another graph with a conditional node runs that graph's condition (its
    // default 0 here: no body runs) and bodies, while what the executable graph holds stays
    // its own graph's, from its instantiation to its destruction (NVIDIA's driver, on an
    // H100): that graph cannot be instantiated again meanwhile, the other one can.
    {
        cudaGraph_t g1, g2, body1, body2;
        cudaGraphConditionalHandle h1, h2;
        cudaGraphExec_t e1, e2 = nullptr, again = nullptr;
        int one = 1, ten = 10;
        void *store_one[] = {&runs, &one}, *store_ten[] = {&runs, &ten};
        cudaGraphExecUpdateResultInfo info = {};
        put(runs, 0);
        CHECK(cudaGraphCreate(&g1, 0));
        CHECK(cudaGraphCreate(&g2, 0));
        CHECK(cudaGraphConditionalHandleCreate(&h1, g1, 1, cudaGraphCondAssignDefault));
        CHECK(cudaGraphConditionalHandleCreate(&h2, g2, 0, cudaGraphCondAssignDefault));
        conditional(g1, nullptr, 0, h1, cudaGraphCondTypeIf, 1, &body1);
        conditional(g2, nullptr, 0, h2, cudaGraphCondTypeIf, 1, &body2);
        kernel_node(body1, nullptr, 0, (void *)store, store_one);
        kernel_node(body2, nullptr, 0, (void *)store, store_ten);
        CHECK(cudaGraphInstantiate(&e1, g1, 0));
        CHECK(cudaGraphExecUpdate(e1, g2, &info));
        CHECK(cudaGraphLaunch(e1, s));
        CHECK(cudaStreamSynchronize(s));
        if (fetch(runs) != 0)
            c.fail("the updated executable graph stored %d, want 0 (the new graph's condition, "
                   "0 by default, runs no body)", fetch(runs));
        cudaError_t e = cudaGraphInstantiate(&again, g1, 0);
        if (e != cudaErrorNotSupported)
            c.fail("instantiating the graph of an updated executable graph: %s, want "
                   "cudaErrorNotSupported", cudaGetErrorName(e));
        cudaGetLastError();
        CHECK(cudaGraphInstantiate(&e2, g2, 0));
        CHECK(cudaGraphExecDestroy(e2));
        CHECK(cudaGraphExecDestroy(e1));
        CHECK(cudaGraphInstantiate(&again, g1, 0));
        CHECK(cudaGraphLaunch(again, s));
        CHECK(cudaStreamSynchronize(s));
        if (fetch(runs) != 1)
            c.fail("the graph instantiated again stored %d, want 1", fetch(runs));
        CHECK(cudaGraphExecDestroy(again));
        CHECK(cudaGraphDestroy(g1));
        CHECK(cudaGraphDestroy(g2));
    }

    // What CUDA refuses: a WHILE of two bodies, an IF of three.
    {
        cudaGraph_t g;
        cudaGraphConditionalHandle h;
        cudaGraphNode_t n;
        cudaGraphNodeParams p = {};
        CHECK(cudaGraphCreate(&g, 0));
        CHECK(cudaGraphConditionalHandleCreate(&h, g, 0, 0));
        p.type = cudaGraphNodeTypeConditional;
        p.conditional.handle = h;
        p.conditional.type = cudaGraphCondTypeWhile;
        p.conditional.size = 2;
        if (cudaGraphAddNode(&n, g, nullptr, nullptr, 0, &p) != cudaErrorInvalidValue)
            c.fail("a WHILE node of two bodies was not refused");
        cudaGetLastError();
        p.conditional.type = cudaGraphCondTypeIf;
        p.conditional.size = 3;
        if (cudaGraphAddNode(&n, g, nullptr, nullptr, 0, &p) != cudaErrorInvalidValue)
            c.fail("an IF node of three bodies was not refused");
        cudaGetLastError();
        CHECK(cudaGraphDestroy(g));
    }
    CHECK(cudaFree(d));
    CHECK(cudaStreamDestroy(s));
    return c.finish();
}
