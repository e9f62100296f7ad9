// stream.cpp — streams, events and the executor of each simulated device.
//
// Every operation queued on a device (kernel, copy, set, event record, host
// function) runs on that device's executor thread, in the order it was
// queued. One queue per device gives each stream its order and the legacy
// default stream its synchronization with every other stream; streams do not
// overlap each other (CUDA allows but never promises that). The host returns
// as soon as the operation is queued, as with a GPU.
//
// An error that work raises while it runs (a kernel's illegal address, a
// failed assert, a barrier error) is held by the executor, and becomes the
// device's sticky error only when the host synchronizes with that work
// (cudaDeviceSynchronize, cudaStreamSynchronize, cudaEventSynchronize, a
// blocking copy, a query that finds the work done). Which call sees it first
// is then fixed by the program, never by how fast the executor ran. Work
// queued after the failed op is skipped, as on a GPU whose context is lost.
#include "internal.hpp"
#include "trace.hpp"
#include "model.hpp"

#include <condition_variable>
#include <cstring>
#include <ctime>
#include <deque>
#include <mutex>
#include <set>
#include <thread>

struct CUstream_st {
    int device;
    unsigned flags;
    uint64_t last_seq;             // sequence number of the last op queued on it
    cudaGraph_t capture = nullptr; // the graph its work goes to while captured
};

struct CUevent_st {
    int device;
    unsigned flags;
    uint64_t seq;    // op that records it; 0 = never recorded
    double stamp_ms; // CLOCK_MONOTONIC when that op ran
    double model_ms; // the stream's modeled clock then (GPULAB_SIM_MODEL), else -1
    cudaGraph_t captured_in = nullptr; // last recorded in a stream being captured into it
};

namespace gpulab_sim
{
namespace
{

constexpr int max_devices = 16;

struct op {
    uint64_t seq;
    const char *what;
    std::function<cudaError_t()> fn;
};

struct executor {
    int device = 0;
    std::mutex m;
    std::condition_variable work, done;
    std::deque<op> queue;
    uint64_t next_seq = 1;
    uint64_t done_seq = 0;
    // The first error an op raised, and that op's sequence number: the host
    // sees it once it synchronizes with that op (see publish).
    cudaError_t raised = cudaSuccess;
    uint64_t raised_seq = 0;
    CUstream_st default_stream{};
};

// Never destroyed: executor threads may outlive static destruction at exit.
executor *executors[max_devices];
std::mutex registry_mutex;
std::set<CUstream_st *> streams;
std::set<CUevent_st *> events;

double now_ms()
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

void run_executor(int d, executor *x)
{
    model_executor(d);
    for (;;) {
        op o;
        {
            std::unique_lock<std::mutex> lock(x->m);
            x->work.wait(lock, [x] { return !x->queue.empty(); });
            o = std::move(x->queue.front());
            x->queue.pop_front();
        }
        bool failed;
        {
            std::lock_guard<std::mutex> lock(x->m);
            failed = x->raised != cudaSuccess;
        }
        cudaError_t e = cudaSuccess;
        if (!failed && sticky(d) == cudaSuccess)
            e = o.fn();
        o.fn = nullptr; // release captured state before announcing completion
        std::lock_guard<std::mutex> lock(x->m);
        // Device memory that a run of kernels opened is closed before the
        // host learns that the last of them is done (protect.cpp): host code
        // after a synchronizing call finds it closed.
        if (x->queue.empty())
            device_memory_batch_close();
        if (e != cudaSuccess && x->raised == cudaSuccess) {
            x->raised = e;
            x->raised_seq = o.seq;
        }
        x->done_seq = o.seq;
        x->done.notify_all();
    }
}

executor *exec(int d)
{
    static std::mutex start_mutex;
    std::lock_guard<std::mutex> lock(start_mutex);
    if (!executors[d]) {
        executor *x = new executor;
        x->device = d;
        x->default_stream.device = d;
        executors[d] = x;
        std::thread(run_executor, d, x).detach();
    }
    return executors[d];
}

// Resolves a handle; *out is the stream object (the device's default one for 0).
bool resolve(cudaStream_t s, CUstream_st **out)
{
    if (s == nullptr || s == cudaStreamLegacy || s == cudaStreamPerThread) {
        int d = current_device();
        if (!valid_device(d))
            return false;
        *out = &exec(d)->default_stream;
        return true;
    }
    std::lock_guard<std::mutex> lock(registry_mutex);
    if (!streams.count(s))
        return false;
    *out = s;
    return true;
}

// Waits until op seq has run. Publishes nothing: for waits of the executor
// itself (cudaStreamWaitEvent), which the host does not see.
void wait_for(executor *x, uint64_t seq)
{
    std::unique_lock<std::mutex> lock(x->m);
    x->done.wait(lock, [x, seq] { return x->done_seq >= seq; });
}

// The host has seen ops up to seq finish: an error one of them raised becomes
// the device's sticky error now. Called with x->m held.
void publish(executor *x, uint64_t seq)
{
    if (x->raised != cudaSuccess && x->raised_seq <= seq)
        set_sticky(x->device, x->raised);
}

// The host waits until op seq has run, and sees what it raised.
void sync_to(executor *x, uint64_t seq)
{
    std::unique_lock<std::mutex> lock(x->m);
    x->done.wait(lock, [x, seq] { return x->done_seq >= seq; });
    publish(x, seq);
}

bool event_valid(cudaEvent_t e)
{
    std::lock_guard<std::mutex> lock(registry_mutex);
    return e && events.count(e);
}

uint64_t completed(int d)
{
    executor *x = exec(d);
    std::lock_guard<std::mutex> lock(x->m);
    return x->done_seq;
}

} // namespace

bool stream_device(cudaStream_t s, int *d)
{
    CUstream_st *st;
    if (!resolve(s, &st))
        return false;
    *d = st->device;
    return true;
}

cudaGraph_t stream_capture(cudaStream_t s)
{
    CUstream_st *st;
    if (!resolve(s, &st))
        return nullptr;
    std::lock_guard<std::mutex> lock(registry_mutex);
    return st->capture;
}

cudaError_t stream_capture_set(cudaStream_t s, cudaGraph_t g)
{
    CUstream_st *st;
    if (s == nullptr || s == cudaStreamLegacy)
        return cudaErrorStreamCaptureUnsupported; // the legacy stream cannot be captured
    if (!resolve(s, &st))
        return cudaErrorInvalidResourceHandle;
    std::lock_guard<std::mutex> lock(registry_mutex);
    st->capture = g;
    return cudaSuccess;
}

void stream_capture_end(cudaGraph_t g)
{
    std::lock_guard<std::mutex> lock(registry_mutex);
    for (cudaStream_t st : streams)
        if (st->capture == g)
            st->capture = nullptr;
}

cudaError_t enqueue(cudaStream_t s, const char *what, std::function<cudaError_t()> fn)
{
    CUstream_st *st;
    if (!resolve(s, &st))
        return cudaErrorInvalidResourceHandle;
    if (st->capture) // stream capture: the work becomes a node of the graph
        return graph_capture(st->capture, what, std::move(fn));
    executor *x = exec(st->device);
    std::lock_guard<std::mutex> lock(x->m);
    uint64_t seq = x->next_seq++;
    st->last_seq = seq;
    x->queue.push_back(op{ seq, what, std::move(fn) });
    x->work.notify_one();
    return cudaSuccess;
}

cudaError_t stream_sync(cudaStream_t s)
{
    CUstream_st *st;
    if (!resolve(s, &st))
        return cudaErrorInvalidResourceHandle;
    if (st->capture)
        return cudaErrorStreamCaptureUnsupported; // nothing of a capture runs until launched
    executor *x = exec(st->device);
    uint64_t seq;
    {
        std::lock_guard<std::mutex> lock(x->m);
        seq = st->last_seq;
    }
    sync_to(x, seq);
    return sticky(st->device);
}

cudaError_t device_sync(int d)
{
    if (!valid_device(d))
        return cudaErrorInvalidDevice;
    executor *x = exec(d);
    uint64_t seq;
    {
        std::lock_guard<std::mutex> lock(x->m);
        seq = x->next_seq - 1;
    }
    sync_to(x, seq);
    return sticky(d);
}

void destroy_streams(int d)
{
    if (valid_device(d)) {
        executor *x = exec(d);
        std::lock_guard<std::mutex> lock(x->m);
        x->raised = cudaSuccess;
        x->raised_seq = 0;
    }
    std::lock_guard<std::mutex> lock(registry_mutex);
    for (auto it = streams.begin(); it != streams.end();) {
        if ((*it)->device == d) {
            delete *it;
            it = streams.erase(it);
        } else {
            ++it;
        }
    }
    for (auto it = events.begin(); it != events.end();) {
        if ((*it)->device == d) {
            delete *it;
            it = events.erase(it);
        } else {
            ++it;
        }
    }
}

} // namespace gpulab_sim

using namespace gpulab_sim;

extern "C" {

cudaError_t cudaStreamCreateWithFlags(cudaStream_t *ps, unsigned int flags)
{
    gpulab_sim::trace_api api_call_("cudaStreamCreateWithFlags");
    int d;
    cudaError_t e = enter(&d);
    if (e != cudaSuccess)
        return e;
    if (!ps || flags > cudaStreamNonBlocking)
        return record(cudaErrorInvalidValue);
    CUstream_st *s = new CUstream_st{ d, flags, 0 };
    std::lock_guard<std::mutex> lock(registry_mutex);
    streams.insert(s);
    *ps = s;
    return cudaSuccess;
}

cudaError_t cudaStreamCreate(cudaStream_t *ps)
{
    gpulab_sim::trace_api api_call_("cudaStreamCreate");
    return cudaStreamCreateWithFlags(ps, cudaStreamDefault);
}

cudaError_t cudaStreamCreateWithPriority(cudaStream_t *ps, unsigned int flags, int priority)
{
    gpulab_sim::trace_api api_call_("cudaStreamCreateWithPriority");
    (void)priority; // one queue per device: priorities cannot reorder work
    return cudaStreamCreateWithFlags(ps, flags);
}

cudaError_t cudaDeviceGetStreamPriorityRange(int *least, int *greatest)
{
    if (least)
        *least = 0;
    if (greatest)
        *greatest = -1;
    return cudaSuccess;
}

cudaError_t cudaStreamDestroy(cudaStream_t s)
{
    gpulab_sim::trace_api api_call_("cudaStreamDestroy");
    std::lock_guard<std::mutex> lock(registry_mutex);
    if (!s || !streams.erase(s))
        return record(cudaErrorInvalidResourceHandle);
    delete s; // queued work keeps running: the executor never touches the object
    return cudaSuccess;
}

cudaError_t cudaStreamSynchronize(cudaStream_t s)
{
    gpulab_sim::trace_api api_call_("cudaStreamSynchronize");
    int d;
    cudaError_t e = enter(&d);
    if (e != cudaSuccess)
        return e;
    return record(stream_sync(s));
}

cudaError_t cudaStreamQuery(cudaStream_t s)
{
    gpulab_sim::trace_api api_call_("cudaStreamQuery");
    CUstream_st *st;
    int d;
    cudaError_t e = enter(&d);
    if (e != cudaSuccess)
        return e;
    if (!resolve(s, &st))
        return record(cudaErrorInvalidResourceHandle);
    executor *x = exec(st->device);
    std::lock_guard<std::mutex> lock(x->m);
    if (x->done_seq < st->last_seq)
        return cudaErrorNotReady;
    publish(x, st->last_seq); // seen finished: what it raised shows now
    return record(sticky(st->device));
}

cudaError_t cudaEventCreateWithFlags(cudaEvent_t *pe, unsigned int flags)
{
    gpulab_sim::trace_api api_call_("cudaEventCreateWithFlags");
    int d;
    cudaError_t e = enter(&d);
    if (e != cudaSuccess)
        return e;
    if (!pe || flags > 0x7)
        return record(cudaErrorInvalidValue);
    CUevent_st *ev = new CUevent_st{ d, flags, 0, 0.0, -1.0 };
    std::lock_guard<std::mutex> lock(registry_mutex);
    events.insert(ev);
    *pe = ev;
    return cudaSuccess;
}

cudaError_t cudaEventCreate(cudaEvent_t *pe)
{
    gpulab_sim::trace_api api_call_("cudaEventCreate");
    return cudaEventCreateWithFlags(pe, cudaEventDefault);
}

cudaError_t cudaEventDestroy(cudaEvent_t ev)
{
    gpulab_sim::trace_api api_call_("cudaEventDestroy");
    std::lock_guard<std::mutex> lock(registry_mutex);
    if (!ev || !events.erase(ev))
        return record(cudaErrorInvalidResourceHandle);
    // A pending record op may still write the stamp: keep the object alive.
    ev->device = -1;
    return cudaSuccess;
}

cudaError_t cudaEventRecord(cudaEvent_t ev, cudaStream_t s)
{
    gpulab_sim::trace_api api_call_("cudaEventRecord");
    int d, sd;
    cudaError_t e = enter(&d);
    if (e != cudaSuccess)
        return e;
    if (!event_valid(ev) || !stream_device(s, &sd))
        return record(cudaErrorInvalidResourceHandle);
    if (sd != ev->device)
        return record(cudaErrorInvalidResourceHandle);
    CUstream_st *st;
    resolve(s, &st);
    if (st->capture) {
        // In a capture an event only marks a point that other streams may
        // join (cudaStreamWaitEvent); work is in capture order anyway.
        ev->captured_in = st->capture;
        return cudaSuccess;
    }
    ev->captured_in = nullptr;
    e = enqueue(s, "cudaEventRecord", [ev, s]() {
        ev->stamp_ms = now_ms();
        ev->model_ms = model_stamp(s);
        return cudaSuccess;
    });
    std::lock_guard<std::mutex> lock(exec(sd)->m);
    ev->seq = st->last_seq;
    return record(e);
}

/* The runtime entered and ev a live event: cudaSuccess, else the error to return. */
static cudaError_t enter_event(cudaEvent_t ev)
{
    int d;
    cudaError_t e = enter(&d);
    if (e != cudaSuccess)
        return e;
    return event_valid(ev) ? cudaSuccess : record(cudaErrorInvalidResourceHandle);
}

cudaError_t cudaEventQuery(cudaEvent_t ev)
{
    gpulab_sim::trace_api api_call_("cudaEventQuery");
    cudaError_t e = enter_event(ev);
    if (e != cudaSuccess)
        return e;
    if (ev->seq == 0)
        return cudaSuccess;
    executor *x = exec(ev->device);
    std::lock_guard<std::mutex> lock(x->m);
    if (x->done_seq < ev->seq)
        return cudaErrorNotReady;
    publish(x, ev->seq); // seen finished: what the work before it raised shows now
    return record(sticky(ev->device));
}

cudaError_t cudaEventSynchronize(cudaEvent_t ev)
{
    gpulab_sim::trace_api api_call_("cudaEventSynchronize");
    cudaError_t e = enter_event(ev);
    if (e != cudaSuccess)
        return e;
    if (ev->seq)
        sync_to(exec(ev->device), ev->seq);
    return record(sticky(ev->device));
}

cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end)
{
    gpulab_sim::trace_api api_call_("cudaEventElapsedTime");
    int d;
    cudaError_t e = enter(&d);
    if (e != cudaSuccess)
        return e;
    if (!ms)
        return record(cudaErrorInvalidValue);
    if (!event_valid(start) || !event_valid(end) || start->seq == 0 || end->seq == 0 ||
        (start->flags & cudaEventDisableTiming) || (end->flags & cudaEventDisableTiming))
        return record(cudaErrorInvalidResourceHandle);
    if (completed(start->device) < start->seq || completed(end->device) < end->seq)
        return record(cudaErrorNotReady);
    // With the performance model on, the time between the events on the
    // modeled clock (docs/model.md); else the simulator's CPU time.
    if (start->model_ms >= 0 && end->model_ms >= 0)
        *ms = (float)(end->model_ms - start->model_ms);
    else
        *ms = (float)(end->stamp_ms - start->stamp_ms);
    return cudaSuccess;
}

cudaError_t cudaStreamWaitEvent(cudaStream_t s, cudaEvent_t ev, unsigned int flags)
{
    gpulab_sim::trace_api api_call_("cudaStreamWaitEvent");
    int d, sd;
    cudaError_t e = enter(&d);
    if (e != cudaSuccess)
        return e;
    if (flags != 0)
        return record(cudaErrorInvalidValue);
    if (!event_valid(ev) || !stream_device(s, &sd))
        return record(cudaErrorInvalidResourceHandle);
    if (ev->captured_in) {
        // Waiting on a point of a capture: s joins it (its work goes to that
        // graph from here on).
        if (stream_capture(s) && stream_capture(s) != ev->captured_in)
            return record(cudaErrorStreamCaptureMerge);
        return record(stream_capture_set(s, ev->captured_in));
    }
    if (ev->seq == 0)
        return cudaSuccess;
    if (ev->device == sd) {
        // One queue per device: already in order. The model's clock of s moves
        // up to the event's (the op reads it when it runs, after the record).
        return record(enqueue(s, "cudaStreamWaitEvent", [ev, s]() {
            model_wait(s, ev->model_ms);
            return cudaSuccess;
        }));
    }
    int ed = ev->device;
    uint64_t seq = ev->seq;
    return record(enqueue(s, "cudaStreamWaitEvent", [ed, seq]() {
        wait_for(exec(ed), seq);
        return cudaSuccess;
    }));
}

cudaError_t cudaLaunchHostFunc(cudaStream_t s, cudaHostFn_t fn, void *user)
{
    gpulab_sim::trace_api api_call_("cudaLaunchHostFunc");
    int d;
    cudaError_t e = enter(&d);
    if (e != cudaSuccess)
        return e;
    if (!fn)
        return record(cudaErrorInvalidValue);
    return record(enqueue(s, "cudaLaunchHostFunc", [fn, user]() {
        fn(user);
        return cudaSuccess;
    }));
}

cudaError_t cudaStreamAddCallback(cudaStream_t s, cudaStreamCallback_t cb, void *user,
                                  unsigned int flags)
{
    gpulab_sim::trace_api api_call_("cudaStreamAddCallback");
    int d;
    cudaError_t e = enter(&d);
    if (e != cudaSuccess)
        return e;
    if (!cb || flags != 0)
        return record(cudaErrorInvalidValue);
    return record(enqueue(s, "cudaStreamAddCallback", [s, cb, user]() {
        cb(s, cudaSuccess, user);
        return cudaSuccess;
    }));
}

} // extern "C"
