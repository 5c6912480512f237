// cxx_histogram.cc — a C++ kernel on std::thread: NTHREADS threads each
// count the values of their quarter of a std::vector into a local
// histogram, add it to the shared one under a std::mutex (std::lock_guard),
// meet at a barrier built from a std::mutex and a std::condition_variable,
// and then scale their quarter by the shared histogram. The shared bins are
// migratory in the first phase (each merge reads and writes them: RAW and
// WAW), and read by every thread in the second (RAW of degree NTHREADS).
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <thread>
#include <vector>

constexpr int N = 4096, NTHREADS = 4, BINS = 16;

static std::vector<int> values(N);
static std::vector<double> scaled(N);
static int hist[BINS];
static std::mutex hist_lock;

class barrier {
public:
    explicit barrier(int n) : n_(n) {}
    void wait()
    {
        std::unique_lock<std::mutex> l(m_);
        int gen = gen_;
        if (++count_ == n_) {
            count_ = 0;
            gen_++;
            cv_.notify_all();
        } else {
            cv_.wait(l, [&] { return gen_ != gen; });
        }
    }

private:
    std::mutex m_;
    std::condition_variable cv_;
    int n_, count_ = 0, gen_ = 0;
};
static barrier phase(NTHREADS);

static void work(int id)
{
    int lo = id * N / NTHREADS, hi = (id + 1) * N / NTHREADS;
    int local[BINS] = {};
    for (int i = lo; i < hi; i++)
        local[values[i] % BINS]++;
    {
        std::lock_guard<std::mutex> g(hist_lock);
        for (int b = 0; b < BINS; b++)
            hist[b] += local[b];
    }
    phase.wait();
    for (int i = lo; i < hi; i++)
        scaled[i] = values[i] / double(hist[values[i] % BINS]);
}

int main()
{
    unsigned v = 1;
    for (int &x : values)
        x = int((v = v * 1103515245 + 12345) >> 16) % 1000;
    std::vector<std::thread> threads;
    for (int id = 0; id < NTHREADS; id++)
        threads.emplace_back(work, id);
    for (auto &t : threads)
        t.join();
    double sum = 0;
    for (double s : scaled)
        sum += s;
    std::printf("cxx_histogram: sum of the scaled values = %.3f\n", sum);
    return 0;
}
