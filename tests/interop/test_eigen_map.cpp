// Eigen maps a dod index in place as a row-major sparse matrix with int32 indices (the
// index's offsets are Eigen's outer index, its items the inner indices) and a values array
// alongside; a sparse matrix-vector product must equal the same product computed row by row
// from the index. Done over a built index and over a view of a saved, memory-mapped file.
#include <dod/csr_io.h>
#include <dod/csr_view.h>
#include <dod/file_map.h>

#include <Eigen/SparseCore>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "check.h"

using RowMajorMap = Eigen::Map<Eigen::SparseMatrix<float, Eigen::RowMajor, int32_t>>;
using ConstRowMajorMap = Eigen::Map<const Eigen::SparseMatrix<float, Eigen::RowMajor, int32_t>>;

// y = A x from the index itself: the reference.
static std::vector<float> spmv_reference(uint32_t n_rows, const uint32_t *offsets,
                                         const uint32_t *items, const std::vector<float> &values,
                                         const std::vector<float> &x)
{
    std::vector<float> y(n_rows, 0.0f);
    for (uint32_t r = 0; r < n_rows; ++r)
        for (uint32_t k = offsets[r]; k < offsets[r + 1]; ++k)
            y[r] += values[k] * x[items[k]];
    return y;
}

static bool close_enough(const Eigen::VectorXf &got, const std::vector<float> &want)
{
    if ((size_t)got.size() != want.size())
        return false;
    for (size_t i = 0; i < want.size(); ++i)
        if (std::fabs(got[(Eigen::Index)i] - want[i]) > 1e-4f * (1.0f + std::fabs(want[i])))
            return false;
    return true;
}

int main()
{
    const uint32_t n_rows = 2000, n_items = 12000;
    std::vector<uint32_t> keys(n_items);
    test_rng rng = { 2024 };
    for (uint32_t i = 0; i < n_items; ++i) {
        uint32_t u = test_rng_below(&rng, 1000);
        keys[i] = (uint32_t)((uint64_t)n_rows * u * u / 1000000); // long-tailed
    }
    dod_csr idx;
    dod_csr_init(&idx, nullptr);
    CHECK_OK(dod_csr_build(&idx, n_rows, keys.data(), 4, n_items));
    CHECK(idx.n_items <= (uint32_t)INT32_MAX);

    std::vector<float> values(n_items), x(n_items);
    for (uint32_t k = 0; k < n_items; ++k)
        values[k] = 0.25f + (float)(k % 7);
    for (uint32_t c = 0; c < n_items; ++c)
        x[c] = (float)test_rng_below(&rng, 1000) / 1000.0f - 0.5f;
    Eigen::Map<const Eigen::VectorXf> xv(x.data(), (Eigen::Index)n_items);
    const std::vector<float> want = spmv_reference(n_rows, idx.offsets, idx.items, values, x);

    // In place: int32_t and uint32_t may alias, and every offset and item is below 2^31.
    RowMajorMap a((Eigen::Index)n_rows, (Eigen::Index)idx.item_bound, (Eigen::Index)n_items,
                  reinterpret_cast<int32_t *>(idx.offsets), reinterpret_cast<int32_t *>(idx.items),
                  values.data());
    CHECK(a.outerIndexPtr() == reinterpret_cast<int32_t *>(idx.offsets)); // no copy
    CHECK(a.innerIndexPtr() == reinterpret_cast<int32_t *>(idx.items));
    CHECK(a.isCompressed());
    CHECK_EQ(a.nonZeros(), (Eigen::Index)n_items);
    CHECK_EQ(a.rows(), (Eigen::Index)n_rows);
    CHECK_EQ(a.cols(), (Eigen::Index)n_items);
    Eigen::VectorXf y = a * xv;
    CHECK(close_enough(y, want));
    // Coefficients: item k of row r is column items[k] with values[k].
    int coeff_ok = 1;
    for (uint32_t r = 0; r < n_rows; r += 97)
        for (uint32_t k = idx.offsets[r]; k < idx.offsets[r + 1]; ++k)
            coeff_ok &= a.coeff((Eigen::Index)r, (Eigen::Index)idx.items[k]) == values[k];
    CHECK(coeff_ok);

    // The same through a saved file mapped read-only and opened as a fully checked view.
    char path[] = "/tmp/dod_eigen_XXXXXX";
    FILE *f = nullptr;
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    if (fd >= 0)
        f = fdopen(fd, "wb");
    CHECK(f != nullptr);
    if (f) {
        CHECK_OK(dod_csr_save(&idx, f));
        CHECK_EQ(fclose(f), 0);
        dod_file_map m;
        CHECK_OK(dod_file_map_open(&m, path));
        dod_csr_view v;
        CHECK_OK(dod_csr_view_open(&v, m.data, m.size, DOD_CSR_VIEW_VALIDATE_FULL));
        ConstRowMajorMap b((Eigen::Index)v.n_rows, (Eigen::Index)v.item_bound,
                           (Eigen::Index)v.n_items, reinterpret_cast<const int32_t *>(v.offsets),
                           reinterpret_cast<const int32_t *>(v.items), values.data());
        CHECK(b.outerIndexPtr() == reinterpret_cast<const int32_t *>(v.offsets));
        Eigen::VectorXf yb = b * xv;
        CHECK(close_enough(yb, want));
        dod_file_map_close(&m);
        remove(path);
    }
    dod_csr_free(&idx);
    return check_summary("interop_eigen");
}
